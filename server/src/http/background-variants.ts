import { readdirSync } from 'node:fs';
import path from 'node:path';
import { BACKGROUND_WIDTH, THEMES } from '@keycard/contract';

/**
 * The build writes each background of SPEC §7 (/images/background/{theme}/1920/{name}.jpg) in smaller
 * forms too (web/scripts/generate-backgrounds.ts): AVIF and WebP, and a phone cut at a narrower width
 * folder. The SPA asks for the SPEC's JPEG path; the service answers it with the smallest form the
 * browser takes, as an image CDN does: the format by Accept, the cut by whether the browser says it
 * runs on a phone.
 */

/** Newer formats first: smaller files for the same picture. */
const FORMATS = [
  { extension: 'avif', type: 'image/avif' },
  { extension: 'webp', type: 'image/webp' },
] as const;

/** Which answer a request may get depends on these request headers (for caches: Vary). */
export const BACKGROUND_VARY = 'Accept, User-Agent';

/** Files under web/dist/images/background, as paths relative to web/dist. */
export type BackgroundFiles = ReadonlySet<string>;

function numericFolders(dir: string): number[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && /^\d+$/.test(entry.name))
      .map((entry) => Number(entry.name));
  } catch {
    return [];
  }
}

/** Lists the background files of a build once, so answering a request needs no file system look-ups. */
export function listBackgroundFiles(webDist: string): BackgroundFiles {
  const files = new Set<string>();
  for (const theme of THEMES) {
    const themeDir = path.join(webDist, 'images', 'background', theme);
    for (const width of numericFolders(themeDir)) {
      for (const name of readdirSync(path.join(themeDir, String(width)))) {
        files.add(`images/background/${theme}/${width}/${name}`);
      }
    }
  }
  return files;
}

/** True when the Accept header names `type` itself with a quality above 0 (wildcards do not count). */
function acceptsType(accept: string | undefined, type: string): boolean {
  return (accept ?? '').split(',').some((range) => {
    const [mediaType = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (mediaType !== type) return false;
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}

/**
 * Phones say "Mobi" in their User-Agent (Chrome and Firefox on Android, Safari on iPhone); tablets do
 * not, and they get the desktop picture, which suits their wider screens.
 */
export function isPhone(userAgent: string | undefined): boolean {
  return /Mobi/.test(userAgent ?? '');
}

/** The narrowest width folder under 1920 that has this picture: the phone cut. */
function phoneWidth(files: BackgroundFiles, theme: string, name: string): number | undefined {
  let best: number | undefined;
  for (const file of files) {
    const match = file.match(/^images\/background\/([^/]+)\/(\d+)\/([^/]+)\.jpg$/);
    if (!match || match[1] !== theme || match[3] !== name) continue;
    const width = Number(match[2]);
    if (width < BACKGROUND_WIDTH && (best === undefined || width < best)) best = width;
  }
  return best;
}

export interface BackgroundRequest {
  readonly theme: string;
  /** The file name of the SPEC path, `{name}.jpg`. */
  readonly file: string;
  readonly accept: string | undefined;
  readonly userAgent: string | undefined;
}

/**
 * The file (relative to web/dist) that answers a request for the SPEC path of a background, or
 * undefined when the build has no such picture. Every choice falls back to the SPEC's own JPEG.
 */
export function chooseBackground(files: BackgroundFiles, request: BackgroundRequest): string | undefined {
  const { theme, file } = request;
  const spec = `images/background/${theme}/${BACKGROUND_WIDTH}/${file}`;
  if (!file.endsWith('.jpg') || !files.has(spec)) return undefined;
  const name = file.slice(0, -'.jpg'.length);
  const width = isPhone(request.userAgent) ? phoneWidth(files, theme, name) : undefined;
  const extensions = [
    ...FORMATS.filter((format) => acceptsType(request.accept, format.type)).map((format) => format.extension),
    'jpg',
  ];
  for (const folder of width === undefined ? [BACKGROUND_WIDTH] : [width, BACKGROUND_WIDTH]) {
    for (const extension of extensions) {
      const candidate = `images/background/${theme}/${folder}/${name}.${extension}`;
      if (files.has(candidate)) return candidate;
    }
  }
  return spec;
}
