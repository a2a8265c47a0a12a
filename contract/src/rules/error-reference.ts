/**
 * The reference of a refused request: shown on the SPA's error page (SPEC §2 /error/), it is the
 * request id of the service's log line about it and of the answer's X-Request-Id header, so the
 * person can quote it and the operator find the line. The service makes it in Crockford's base32
 * alphabet: no I, L, O or U to misread.
 */
export const ERROR_REFERENCE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const ERROR_REFERENCE_LENGTH = 8;

const REFERENCE = new RegExp(`^[${ERROR_REFERENCE_ALPHABET}]{${ERROR_REFERENCE_LENGTH}}$`);

/**
 * The request id a trusted proxy may set instead (X-Request-Id, honoured behind TRUST_PROXY): a UUID,
 * or 16 to 64 hexadecimal digits (nginx's `$request_id`). Hex digits alone spell no message.
 */
const PROXY_REQUEST_ID =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,64})$/i;

/** True for a value the service could have made; the page shows nothing else (no text from a link). */
export function isErrorReference(value: string | null | undefined): value is string {
  return typeof value === 'string' && (REFERENCE.test(value) || PROXY_REQUEST_ID.test(value));
}
