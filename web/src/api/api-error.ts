import type { ErrorCode } from '@keycard/contract';

/**
 * A failed call, carrying the contract's error code (STYLE §2). The message is for logs only;
 * screens choose what to show from `code`. A network failure is `service_unavailable` with status 0.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ErrorCode;
  readonly status: number;
  /** The offending input of a `bad_request`, when the service names one. */
  readonly field: string | undefined;

  constructor(code: ErrorCode, status: number, message: string, field?: string) {
    super(message);
    this.code = code;
    this.status = status;
    this.field = field;
  }
}
