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

  constructor(code: C, status: number, message: string, field?: string) {
    super(message);
    this.code = code;
    this.status = status;
    this.field = field;
  }
}

/** What a POST call of the contract rejects with: an ApiError of one of the codes it declares. */
export type CallError<N extends PostCallName> = ApiError<CallErrorCode<N>>;
