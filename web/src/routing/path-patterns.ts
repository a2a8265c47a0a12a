import { isVerificationType, VerificationType } from '@keycard/contract';

/** A route's path pattern (SPEC §2): the values it reads from a location, or null when it does not match. */
export interface PathPattern<V extends object> {
  readonly match: (pathname: string, search: string) => Readonly<V> | null;
}

/** What a pattern without path values reads. */
export type NoValues = Readonly<Record<never, never>>;

const NO_VALUES: NoValues = {};

/** `/` exactly (an empty path too), when `when` holds for the query string: SPEC §2's ReturnUrl rule. */
export function root(when: (search: string) => boolean): PathPattern<NoValues> {
  return {
    match: (pathname, search) => ((pathname === '/' || pathname === '') && when(search) ? NO_VALUES : null),
  };
}

/** A case-insensitive prefix of the path string (SPEC §2), carrying no values. */
export function prefix(path: string): PathPattern<NoValues> {
  const lower = path.toLowerCase();
  return { match: (pathname) => (pathname.toLowerCase().startsWith(lower) ? NO_VALUES : null) };
}

/** Any path: the last route of the table, SPEC §2's "any other path". */
export const anyPath: PathPattern<NoValues> = { match: () => NO_VALUES };

/** Non-empty path segments after a prefix, decoded where they are valid percent-encoding. */
function segmentsAfter(pathname: string, prefixLength: number): string[] {
  return pathname
    .slice(prefixLength)
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}

/**
 * Segments after a case-insensitive prefix ending in a slash, or null when the path does not start
 * with it or has no segment after it (a `{code}` route without a code shows the fallback page).
 * Values keep their case: codes are case-sensitive.
 */
function codeSegments(path: string): (pathname: string) => string[] | null {
  const lower = `${path.toLowerCase().replace(/\/$/, '')}/`;
  return (pathname) => {
    if (!pathname.toLowerCase().startsWith(lower)) return null;
    const segments = segmentsAfter(pathname, lower.length);
    return segments.length > 0 ? segments : null;
  };
}

export interface CodeValues {
  readonly code: string;
}

/** `{prefix}/{code}`: the last path segment is the code (SPEC §2 /unlock, /verifyNewEmail). */
export function withCode(path: string): PathPattern<CodeValues> {
  const segmentsOf = codeSegments(path);
  return {
    match: (pathname) => {
      const code = segmentsOf(pathname)?.at(-1);
      return code === undefined ? null : { code };
    },
  };
}

export interface TypeAndCodeValues extends CodeValues {
  readonly verificationType: VerificationType;
}

/** SPEC §2: the type is the number in the second-to-last segment; no numeric type → PasswordReset. */
function typeAndCode(segments: readonly string[]): TypeAndCodeValues {
  const code = segments.at(-1) ?? '';
  const typeSegment = segments.at(-2) ?? '';
  const typeNumber = /^\d+$/.test(typeSegment) ? Number(typeSegment) : Number.NaN;
  const verificationType = isVerificationType(typeNumber) ? typeNumber : VerificationType.PasswordReset;
  return { verificationType, code };
}

/** `{prefix}/{verificationType}/{code}` with an optional numeric type (SPEC §2 /resetPassword). */
export function withTypeAndCode(path: string): PathPattern<TypeAndCodeValues> {
  const segmentsOf = codeSegments(path);
  return {
    match: (pathname) => {
      const segments = segmentsOf(pathname);
      return segments ? typeAndCode(segments) : null;
    },
  };
}

export interface ReferenceValues {
  /** The last path segment after the prefix, null when there is none. */
  readonly reference: string | null;
}

/** A case-insensitive prefix (SPEC §2) that may be followed by a reference segment (`/error/{reference}`). */
export function prefixWithReference(path: string): PathPattern<ReferenceValues> {
  const plain = prefix(path);
  const segmentsOf = codeSegments(path);
  return {
    match: (pathname, search) =>
      plain.match(pathname, search) ? { reference: segmentsOf(pathname)?.at(-1) ?? null } : null,
  };
}
