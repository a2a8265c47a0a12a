import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '@keycard/contract';

/**
 * A refusal of the service, one of the contract's closed set of codes (STYLE §2). Domain,
 * provisioning and route code throw it; each door turns it into its answer in one place: the HTTP
 * error handler (http/error-handler.ts), the admin socket and CLI (admin/admin-commands.ts). The
 * message is for the person asking: never a password, a secret or an internal detail.
 */
export class ServiceError extends Error {
  /** Headers an HTTP answer carries besides the body, e.g. an RFC 6750 §3 challenge. */
  readonly headers: Readonly<Record<string, string>> = {};

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The input at fault, for bad_request and invalid_input, and for some conflicts. */
    readonly field?: string,
  ) {
    super(message);
    this.name = new.target.name;
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

/** What was asked for does not exist (an account, client, provider, binding or sign-out request). */
export class NotFoundError extends ServiceError {
  constructor(message: string, field?: string) {
    super('not_found', message, field);
  }
}

/** The change contradicts the stored state, e.g. the address or domain is taken. */
export class ConflictError extends ServiceError {
  constructor(message: string, field?: string) {
    super('conflict', message, field);
  }
}
