import {
  answerableErrors,
  type CallErrorCode,
  type CallResponse,
  ERROR_STATUS,
  type ErrorCode,
  errorBodySchema,
  type PostCallName,
  postCalls,
} from '@keycard/contract';
import { ApiError, retryAfterSeconds } from './api-error.ts';

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

/** Every code the contract lets the POST call answer (its own and the common ones). */
export function errorsOf<N extends PostCallName>(name: N): readonly CallErrorCode<N>[] {
  return answerableErrors('api', postCalls[name]) as readonly CallErrorCode<N>[];
}

/** One of the call's codes: the one answered, or the call's code for the status, else internal_error. */
function declaredCode<C extends ErrorCode>(
  declared: readonly C[],
  code: ErrorCode | undefined,
  status: number,
): C {
  const known = declared.find((candidate) => candidate === code);
  if (known !== undefined) return known;
  const forStatus = declared.find((candidate) => code === undefined && ERROR_STATUS[candidate] === status);
  // Always declared: a code the call cannot answer is the service's fault, not the caller's.
  return forStatus ?? ('internal_error' as C);
}

/**
 * The `{ code, message }` body of a failed call, or a code derived from the status without one,
 * narrowed to the codes the call declares (`declared`); a code it does not declare is internal_error.
 */
export async function errorFromResponse<C extends ErrorCode>(
  response: Response,
  declared: readonly C[],
): Promise<ApiError<C>> {
  const json: unknown = await response.json().catch(() => undefined);
  const body = errorBodySchema.safeParse(json);
  const { status } = response;
  const wait = retryAfterSeconds(response.headers.get('retry-after'));
  if (body.success) {
    const code = declaredCode(declared, body.data.code, status);
    const field = code === body.data.code ? body.data.field : undefined;
    return new ApiError(code, status, body.data.message, field, wait);
  }
  return new ApiError(declaredCode(declared, undefined, status), status, `HTTP ${status}`, undefined, wait);
}
