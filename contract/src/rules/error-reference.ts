/**
 * The reference of a refused request: shown on the SPA's error page (SPEC §2 /error/), written in the
 * service's log line about it, so the person can quote it and the operator find the line. Crockford's
 * base32 alphabet: no I, L, O or U to misread.
 */
export const ERROR_REFERENCE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const ERROR_REFERENCE_LENGTH = 8;

const REFERENCE = new RegExp(`^[${ERROR_REFERENCE_ALPHABET}]{${ERROR_REFERENCE_LENGTH}}$`);

/** True for a value the service could have made; the page shows nothing else (no text from a link). */
export function isErrorReference(value: string | null | undefined): value is string {
  return typeof value === 'string' && REFERENCE.test(value);
}
