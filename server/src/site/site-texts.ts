import { SITE_VALUE_RULE, type SiteFile, siteFileSchema } from '@keycard/contract';
import defaultSite from './default-site.json' with { type: 'json' };

/** Reads a file as UTF-8 text; injected so configuration stays testable without touching the disk. */
export type ReadText = (file: string) => string;

/** The shipped example company (clearly fictional values); SITE_FILE replaces it as a whole. */
export const DEFAULT_SITE: SiteFile = siteFileSchema.parse(defaultSite);

export type SiteResult = { ok: true; site: SiteFile } | { ok: false; problem: string };

/**
 * Loads SITE_FILE: JSON with every site key of the contract (SPEC §1: product name in two parts,
 * help contact, imprint details), each a string or an object with a string per language. A partial file is refused rather than silently mixed with the
 * example company, so a production imprint never shows a fictional register number.
 */
export function loadSiteTexts(file: string | undefined, readText: ReadText): SiteResult {
  if (file === undefined) return { ok: true, site: DEFAULT_SITE };
  let raw: string;
  try {
    raw = readText(file);
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    return { ok: false, problem: `cannot read ${file} (${reason})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, problem: `${file} is not valid JSON` };
  }
  const parsed = siteFileSchema.safeParse(json);
  if (parsed.success) return { ok: true, site: parsed.data };
  // A top-level unknown key is named as such; anything wrong inside a value names its site key.
  const details = parsed.error.issues.map((issue) =>
    issue.code === 'unrecognized_keys' && issue.path.length === 0
      ? `${issue.keys.join(', ')}: unknown key`
      : `${String(issue.path[0])}: ${SITE_VALUE_RULE}`,
  );
  return {
    ok: false,
    problem: `${file} does not match the site schema (${[...new Set(details)].join('; ')})`,
  };
}
