import type { ErrorCode } from './errors.ts';

/**
 * Which error codes a call can answer (STYLE §2). Each call of `postCalls`, `getCalls` and
 * `adminCalls` declares its own refusals in `errors`; the sets below are what every call of its
 * kind can answer besides. The server answers no other code for a declared call (error-handler.ts),
 * the SPA's client narrows its errors to them, and the admin API's OpenAPI document lists them.
 * Zod-free, so the SPA's start-up calls can use them.
 */

/**
 * Any HTTP call: a host name the service is not configured under, a body too large or not JSON, too
 * many requests, a failure on the service's side.
 */
export const TRANSPORT_ERRORS = [
  'misdirected_request',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
  'service_unavailable',
] as const satisfies readonly ErrorCode[];

/** Every call of SPEC §7 beside its own: malformed input (naming the field), CSRF and cross-site refusals. */
export const API_REFUSALS = [
  'bad_request',
  'csrf_rejected',
  'cross_site_rejected',
] as const satisfies readonly ErrorCode[];

/** Every admin API call beside its own: a refused value (naming the field), a missing or weak token. */
export const ADMIN_REFUSALS = [
  'invalid_input',
  'unauthorized',
  'forbidden',
] as const satisfies readonly ErrorCode[];

/** A call's own refusals, as its entry in the contract declares them. */
export interface DeclaresErrors {
  readonly errors: readonly ErrorCode[];
}

/** The codes a call of SPEC §7 can answer: the common ones and those it declares. */
export type ApiErrorCode<C extends DeclaresErrors> =
  | (typeof TRANSPORT_ERRORS)[number]
  | (typeof API_REFUSALS)[number]
  | C['errors'][number];

/** The codes an admin API call can answer: the common ones and those it declares. */
export type AdminErrorCode<C extends DeclaresErrors> =
  | (typeof TRANSPORT_ERRORS)[number]
  | (typeof ADMIN_REFUSALS)[number]
  | C['errors'][number];

/** Every code a call of SPEC §7 (`door: 'api'`) or of the admin API (`'admin'`) may answer. */
export function answerableErrors(door: 'api' | 'admin', call: DeclaresErrors): readonly ErrorCode[] {
  return [...TRANSPORT_ERRORS, ...(door === 'api' ? API_REFUSALS : ADMIN_REFUSALS), ...call.errors];
}
