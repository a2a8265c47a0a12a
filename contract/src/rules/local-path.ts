/**
 * The local-path rule of DESIGN §2, written once for the SPA and the service: a ReturnUrl is only ever
 * a same-origin path. It is checked with the same URL parser the browser uses, because every
 * open-redirect trick is a disagreement between a check and a parser.
 */

/** DESIGN §2: the longest ReturnUrl or RedirectUrl accepted, in UTF-16 units. */
export const MAX_REDIRECT_LENGTH = 2048;

const PROBE_ORIGIN = 'https://keycard.invalid';
// Control characters (incl. TAB/CR/LF, which URL parsers silently drop) and backslashes (which browsers
// read as '/') turn an innocent-looking path into "//host".
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const FORBIDDEN_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

/** True when `value` holds a character no redirect target may hold: a control character or a backslash. */
export function hasForbiddenUrlCharacter(value: string): boolean {
  return FORBIDDEN_CHARACTERS.test(value);
}

function decodeRepeatedly(value: string): string | null {
  let current = value;
  for (let round = 0; round < 3; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
      // Stryker disable next-line BlockStatement: equivalent, without it the next round decodes "undefined", which is no local path either
    } catch {
      return null;
    }
    // Stryker disable next-line ConditionalExpression: equivalent, decoding a stable value again gives the same value; this only saves rounds
    if (next === current) return current;
    current = next;
  }
  return current;
}

function looksLocal(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !hasForbiddenUrlCharacter(path);
}

/** True when `value` is a same-origin path: one leading '/', no '//', no '/\', no scheme, no control characters. */
export function isLocalReturnPath(value: string | null | undefined): value is string {
  if (typeof value !== 'string' || value.length > MAX_REDIRECT_LENGTH) return false;
  if (!looksLocal(value)) return false;
  // Encoded variants must be local too: some hop may decode before navigating.
  const decoded = decodeRepeatedly(value);
  if (decoded === null || !looksLocal(decoded)) return false;
  // The URL parser has the last word; a value that passed looksLocal always resolves on the probe
  // origin and never throws, so no test can tell this check or its catch away.
  // Stryker disable all: unreachable defence in depth, see above
  try {
    return new URL(value, PROBE_ORIGIN).origin === PROBE_ORIGIN;
  } catch {
    return false;
  }
  // Stryker restore all
}
