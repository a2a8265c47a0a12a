/**
 * The closed set of error codes the service answers (STYLE §2). Each knows its HTTP status;
 * the SPA maps codes to screens and texts, never to English strings.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  /** The admin doors' refusal of a value (server InputError), naming the field; bad_request is the SPA's. */
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  csrf_rejected: 403,
  cross_site_rejected: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** The sign-in's OIDC interaction is gone (expired, or not this browser's); the relying party must start again. */
  interaction_expired: 409,
  conflict: 409,
  /**
   * A sign-out the relying party asked for without a valid id_token_hint: nothing ends until the person
   * confirms it (OpenID Connect RP-Initiated Logout 1.0 §2).
   */
  confirmation_required: 409,
  payload_too_large: 413,
  /** The request named a host (Host header) the service is not configured under. */
  misdirected_request: 421,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Body of every error answer. `field` names the offending input for bad_request. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  field?: string;
}

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
