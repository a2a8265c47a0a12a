import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BACKGROUND_VARY, chooseBackground, listBackgroundFiles } from './background-variants.ts';
import { isBuildTextFile, loadBuildTextFiles, sendBuildFile } from './build-files.ts';

/** The SPA's build output, found from this file rather than the working directory. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

const SPA_NOT_BUILT =
  'Keycard: the web app (SPA) is not built, so there is no page to show yet.\n' +
  'Run `npm run build` and restart the service (`npm start` builds it when needed).\n';

/**
 * Vite puts content-hashed files under /assets: a changed file has a new name, so cache forever.
 * Background images keep their SPEC paths, so a day; everything else (index.html, licences, icon)
 * is revalidated on every use by its ETag, which costs a 304 when nothing changed.
 */
function cacheControlFor(normalised: string): string {
  if (normalised.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  if (normalised.startsWith('images/')) return 'public, max-age=86400';
  return 'no-cache';
}

/** The caching headers of a file of the build (path relative to it), which may be the .br or .gz copy. */
function headersFor(sent: string): readonly (readonly [string, string])[] {
  const asked = sent
    .split(path.sep)
    .join('/')
    .replace(/\.(?:br|gz)$/, '');
  const cacheControl = ['cache-control', cacheControlFor(asked)] as const;
  return isBuildTextFile(asked) ? [cacheControl, ['vary', 'Accept-Encoding']] : [cacheControl];
}

/** Whether the SPA is built, i.e. there is an index.html to serve. */
export function isSpaBuilt(webDist: string): boolean {
  return existsSync(path.join(webDist, 'index.html'));
}

/**
 * CSP sources for the inline <style> blocks of the built index.html: the page frame's colours for the
 * first paint, before any file arrives. Each is allowed by its SHA-256, so the policy still admits
 * no other inline style. Read once at start-up; without a build there is nothing to allow.
 */
export function inlineStyleSources(webDist: string): string[] {
  if (!isSpaBuilt(webDist)) return [];
  // The copy registerSpa serves: the page is read once, and the hashes are of the page sent.
  const html =
    loadBuildTextFiles(webDist, cacheControlFor).get('/index.html')?.identity.bytes.toString('utf8') ?? '';
  return [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/gi)].map(
    ([, css = '']) => `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`,
  );
}

/** Answers a page request (any GET the SPA's router decides on) with the SPA's index.html. */
export type SendSpaIndex = (request: FastifyRequest, reply: FastifyReply) => FastifyReply;

/** Without a build there is no page: a 503 that says how to build. */
const sendSpaNotBuilt: SendSpaIndex = (_request, reply) =>
  reply.code(503).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(SPA_NOT_BUILT);

/**
 * Serves the built SPA: its files, and index.html (revalidated on every load) for `/` and, through
 * the answer returned, for any other GET, so the SPA's own case-insensitive router decides what a
 * path shows (SPEC §2). The text files (index.html, scripts, styles) are answered from memory
 * (build-files.ts), each from a route of its own, which comes before @fastify/static's wildcard;
 * pictures and anything else from disk. Without a build only the API is served and pages answer a
 * 503 that says how to build.
 */
export async function registerSpa(app: FastifyInstance, webDist: string): Promise<SendSpaIndex> {
  if (!isSpaBuilt(webDist)) return sendSpaNotBuilt;
  const textFiles = loadBuildTextFiles(webDist, cacheControlFor);
  const index = textFiles.get('/index.html');
  // isSpaBuilt found index.html a moment ago: only a build deleted in between gets here.
  if (index === undefined) return sendSpaNotBuilt;
  const sendIndex: SendSpaIndex = (request, reply) => sendBuildFile(request, reply, index);
  // Worked out once a file: only files of the build that exist get here, so the map stays that size.
  const fileHeaders = new Map<string, readonly (readonly [string, string])[]>();
  await app.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    // A directory without an index.html of its own falls through to the not-found handler.
    index: ['index.html'],
    dotfiles: 'ignore',
    cacheControl: false,
    // The .br or .gz copy the build wrote, by the request's Accept-Encoding; the file itself otherwise.
    preCompressed: true,
    setHeaders: (response, filePath) => {
      let headers = fileHeaders.get(filePath);
      if (headers === undefined) {
        headers = headersFor(path.relative(webDist, filePath));
        fileHeaders.set(filePath, headers);
      }
      for (const [name, value] of headers) response.setHeader(name, value);
    },
  });
  app.get('/', sendIndex);
  for (const [urlPath, file] of textFiles) {
    // A route path reads ':' and '*' as parameters; such a name (never one of the build's) stays
    // with @fastify/static.
    if (/[:*]/.test(urlPath)) continue;
    app.get(urlPath, (request, reply) => sendBuildFile(request, reply, file));
  }
  const backgrounds = listBackgroundFiles(webDist);
  app.get<{ Params: { theme: string; file: string } }>(
    '/images/background/:theme/1920/:file',
    (request, reply) => {
      const chosen = chooseBackground(backgrounds, {
        ...request.params,
        accept: request.headers.accept,
        userAgent: request.headers['user-agent'],
      });
      if (chosen === undefined) return reply.callNotFound();
      return reply.header('vary', BACKGROUND_VARY).sendFile(chosen, webDist);
    },
  );
  return sendIndex;
}

/** Missing build files must stay 404s: an HTML page in place of a script only hides the problem. */
export function isBuildFilePath(urlPath: string): boolean {
  return urlPath.startsWith('/assets/') || urlPath.startsWith('/images/');
}
