import {
  type CallResponse,
  ERROR_STATUS,
  type ErrorCode,
  errorBodySchema,
  type PostCallName,
  postCalls,
} from '@keycard/contract';
import { ApiError } from './api-error.ts';

/**
 * Everything of the client that needs the contract's zod schemas. The client loads this module on
 * its first POST (or first failure), which keeps zod out of the start-up bundle.
 */

export function pathOf(name: PostCallName): string {
  return postCalls[name].path;
}

/** A response that does not match its contract schema is a bug: it surfaces as internal_error. */
export function parseCallResponse<N extends PostCallName>(
  name: N,
  status: number,
  json: unknown,
): CallResponse<N> {
  const result = postCalls[name].response.safeParse(json);
  if (!result.success) {
    throw new ApiError('internal_error', status, `${name}: response does not match the contract`);
  }
  return result.data as CallResponse<N>;
}

function codeForStatus(status: number): ErrorCode {
  const entry = Object.entries(ERROR_STATUS).find(([, known]) => known === status);
  return (entry?.[0] as ErrorCode | undefined) ?? 'internal_error';
}

/** The `{ code, message }` body of a failed call, or a code derived from the status without one. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const json: unknown = await response.json().catch(() => undefined);
  const body = errorBodySchema.safeParse(json);
  if (body.success) {
    return new ApiError(body.data.code, response.status, body.data.message, body.data.field);
  }
  return new ApiError(codeForStatus(response.status), response.status, `HTTP ${response.status}`);
}
