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

/** When the service refuses for too many requests without a Retry-After: its request limit's window. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;

/**
 * The wait a refusal for too many requests asks for: its Retry-After, or the one-minute window of the
 * service's request limit when it gave none; null for any other failure.
 */
export function rateLimitWait(refusal: unknown): number | null {
  if (!(refusal instanceof ApiError) || refusal.code !== 'rate_limited') return null;
  return refusal.retryAfterSeconds ?? RATE_LIMIT_WINDOW_SECONDS;
}

/** What a POST call of the contract rejects with: an ApiError of one of the codes it declares. */
export type CallError<N extends PostCallName> = ApiError<CallErrorCode<N>>;
