import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '@keycard/contract';

/**
 * An error the API answers as `{ code, message, field? }` with the code's status (STYLE §2).
 * Route and domain code throw it; the one error handler sends it.
 */
export class HttpError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  get statusCode(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    return this.field === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, field: this.field };
  }
}
