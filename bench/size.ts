/**
 * `npm run bench:size`: gzip size of what the browser must load before the SPA can start (budget of
 * issue 12, which made the SPA render with React: JS ≤ 90 KB, CSS ≤ 10 KB, gzip level 9, KB = 1000
 * bytes). Builds nothing; measures web/dist.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../web/dist');

const BUDGET_BYTES = { js: 90_000, css: 10_000 } as const;

interface InitialAssets {
  readonly js: string[];
  readonly css: string[];
}

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of tag.matchAll(/([\w-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
    const [, name, doubleQuoted, singleQuoted, bare] = match;
    if (name) {
      found.set(name.toLowerCase(), doubleQuoted ?? singleQuoted ?? bare ?? '');
    }
  }
  return found;
}

/**
 * What index.html makes the browser fetch up front: the entry module script, the chunks Vite marks
 * for modulepreload, and the stylesheets. Lazily imported screens are not part of it.
 */
export function initialAssets(html: string): InitialAssets {
  const js = new Set<string>();
  const css = new Set<string>();
  for (const [, element = '', rest = ''] of html.matchAll(/<(script|link)\b([^>]*)>/gi)) {
    const attrs = attributes(rest);
    if (element.toLowerCase() === 'script' && attrs.get('type') === 'module' && attrs.get('src')) {
      js.add(attrs.get('src') ?? '');
    }
    const rel = attrs.get('rel')?.toLowerCase().split(/\s+/) ?? [];
    const href = attrs.get('href');
    if (element.toLowerCase() === 'link' && href) {
      if (rel.includes('modulepreload')) js.add(href);
      if (rel.includes('stylesheet')) css.add(href);
    }
  }
  return { js: [...js], css: [...css] };
}

/** Site-absolute or relative URLs in index.html → files in dist (query and fragment dropped). */
function fileOf(url: string): string {
  const pathname = url.split(/[?#]/)[0] ?? '';
  return path.join(distDir, pathname.replace(/^\.?\//, ''));
}

function gzipBytes(urls: readonly string[]): number {
  return urls.reduce(
    (total, url) =>
      total + gzipSync(readFileSync(fileOf(url)), { level: constants.Z_BEST_COMPRESSION }).byteLength,
    0,
  );
}

function report(label: string, bytes: number, budget: number, files: number): boolean {
  const within = bytes <= budget;
  const verdict = within ? '' : ' — OVER BUDGET';
  console.log(
    `${label}: ${(bytes / 1000).toFixed(1)} KB gz (budget ${budget / 1000} KB) in ${files} file${files === 1 ? '' : 's'}${verdict}`,
  );
  return within;
}

function main(): number {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    console.error(`bench:size: ${indexFile} is missing; run \`npm run build\` first`);
    return 1;
  }
  const assets = initialAssets(readFileSync(indexFile, 'utf8'));
  if (assets.js.length === 0) {
    console.error('bench:size: index.html has no <script type="module">; is web/dist a Vite build?');
    return 1;
  }
  const missing = [...assets.js, ...assets.css].filter((url) => !existsSync(fileOf(url)));
  if (missing.length > 0) {
    console.error(
      `bench:size: index.html references missing files: ${missing.join(', ')}; run \`npm run build\` first`,
    );
    return 1;
  }
  const jsWithin = report('initial JS', gzipBytes(assets.js), BUDGET_BYTES.js, assets.js.length);
  const cssWithin = report('initial CSS', gzipBytes(assets.css), BUDGET_BYTES.css, assets.css.length);
  return jsWithin && cssWithin ? 0 : 1;
}

process.exitCode = main();
