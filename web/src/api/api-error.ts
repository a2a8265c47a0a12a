import type { CallErrorCode, ErrorCode, PostCallName } from '@keycard/contract';

/**
 * A failed call, carrying the contract's error code (STYLE §2), one of those the call declares
 * (`C`). The message is for logs only; screens choose what to show from `code`. A network failure is
 * `service_unavailable` with status 0.
 */
export class ApiError<C extends ErrorCode = ErrorCode> extends Error {
  override readonly name = 'ApiError';
  readonly code: C;
  readonly status: number;
  /** The offending input of a `bad_request`, when the service names one. */
  readonly field: string | undefined;
  /** Seconds the service asked to wait before trying again (its Retry-After), when it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: C, status: number, message: string, field?: string, retryAfterSeconds?: number) {
    super(message);
    this.code = code;
    this.status = status;
    this.field = field;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * RFC 9110 §10.2.3 Retry-After as whole seconds from `now`: a number of seconds or an HTTP date;
 * undefined when absent or unreadable. A date in the past is 0.
 */
export function retryAfterSeconds(header: string | null, now: number = Date.now()): number | undefined {
  const value = header?.trim() ?? '';
  if (/^\d+$/.test(value)) return Number(value);
  // An HTTP date (IMF-fixdate, or an obsolete form) always ends in GMT.
  if (!/ GMT$/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** What a POST call of the contract rejects with: an ApiError of one of the codes it declares. */
export type CallError<N extends PostCallName> = ApiError<CallErrorCode<N>>;
