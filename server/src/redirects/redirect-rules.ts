/**
 * Redirect rules of DESIGN §2. A ReturnUrl is only ever a local path; a RedirectUrl or post-logout
 * target is an absolute http(s) URL on the allow-list. Both are checked with the same URL parser the
 * browser uses, because every open-redirect trick is a disagreement between a check and a parser.
 */

const PROBE_ORIGIN = 'https://keycard.invalid';
// Control characters (incl. TAB/CR/LF, which URL parsers silently drop) and backslashes (which browsers
// read as '/') turn an innocent-looking path into "//host".
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const FORBIDDEN_CHARACTERS = /[\u0000-\u001f\u007f\\]/;
const MAX_LENGTH = 2048;

function decodeRepeatedly(value: string): string | null {
  let current = value;
  for (let round = 0; round < 3; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

function looksLocal(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !FORBIDDEN_CHARACTERS.test(path);
}

/** True when `value` is a same-origin path: one leading '/', no '//', no '/\', no scheme, no control characters. */
export function isLocalReturnPath(value: string | null | undefined): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return false;
  if (!looksLocal(value)) return false;
  // Encoded variants must be local too: some hop may decode before navigating.
  const decoded = decodeRepeatedly(value);
  if (decoded === null || !looksLocal(decoded)) return false;
  try {
    return new URL(value, PROBE_ORIGIN).origin === PROBE_ORIGIN;
  } catch {
    return false;
  }
}

/** The local path when `value` passes isLocalReturnPath, else null. */
export function localReturnPathOrNull(value: string | null | undefined): string | null {
  return isLocalReturnPath(value) ? value : null;
}

/**
 * The normalised absolute URL when `value` is http(s), carries no credentials and its origin is allowed;
 * otherwise null. Callers fall back to DEFAULT_REDIRECT_URL.
 */
export function allowedRedirectOrNull(
  value: string | null | undefined,
  allowedOrigins: ReadonlySet<string>,
): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return null;
  if (FORBIDDEN_CHARACTERS.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return allowedOrigins.has(url.origin) ? url.href : null;
}
