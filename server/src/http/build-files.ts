import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stillValid } from './revalidated-body.ts';

/** Content codings the build writes beside a text file (web/scripts/build.mjs), by preference. */
const CODINGS = ['br', 'gzip'] as const;
type Coding = (typeof CODINGS)[number];
const SUFFIX: Readonly<Record<Coding, string>> = { br: '.br', gzip: '.gz' };

/** The build's text files, by extension, with the types @fastify/static would send them with. */
const TEXT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.webmanifest': 'application/manifest+json',
};

/** Whether a file of the build (path or name) is one of its text files, which have coded copies. */
export function isBuildTextFile(name: string): boolean {
  return TEXT_TYPES[path.extname(name)] !== undefined;
}

/** One coding of a file: its bytes and an ETag of its own (the bytes differ, so the tags do). */
interface Form {
  readonly bytes: Buffer;
  readonly etag: string;
}

/** A text file of the build held in memory, in each coding the build wrote. */
export interface BuildFile {
  readonly contentType: string;
  readonly cacheControl: string;
  readonly identity: Form;
  readonly coded: ReadonlyMap<Coding, Form>;
}

function formOf(bytes: Buffer): Form {
  return { bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"` };
}

/**
 * The text files at the top of the build and in its assets/ folder (index.html, the scripts and
 * styles, the licence list, the icon), read once, by URL path. A build is fixed while the service
 * runs (index.html's inline styles are allowed by hashes taken at start-up too), and these files are
 * asked for on every first visit: from memory they cost no file system calls (BENCHMARKS.md).
 * Pictures stay on disk, served by @fastify/static.
 */
export function loadBuildTextFiles(
  webDist: string,
  cacheControlFor: (relativePath: string) => string,
): ReadonlyMap<string, BuildFile> {
  // One read per build: an app built again on the same build (the tests build hundreds) shares it.
  const key = `${webDist}\u0000${statSync(path.join(webDist, 'index.html'), { throwIfNoEntry: false })?.mtimeMs}`;
  let files = loaded.get(key);
  if (files === undefined) {
    files = readBuildTextFiles(webDist, cacheControlFor);
    loaded.set(key, files);
  }
  return files;
}

/** The builds read so far, by directory and index.html's modification time. */
const loaded = new Map<string, ReadonlyMap<string, BuildFile>>();

function readBuildTextFiles(
  webDist: string,
  cacheControlFor: (relativePath: string) => string,
): ReadonlyMap<string, BuildFile> {
  const files = new Map<string, BuildFile>();
  for (const folder of ['', 'assets']) {
    const directory = path.join(webDist, folder);
    if (!existsSync(directory)) continue;
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const contentType = TEXT_TYPES[path.extname(entry.name)];
      if (!entry.isFile() || contentType === undefined) continue;
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      const coded = new Map<Coding, Form>();
      for (const coding of CODINGS) {
        const copy = path.join(directory, entry.name + SUFFIX[coding]);
        if (existsSync(copy)) coded.set(coding, formOf(readFileSync(copy)));
      }
      files.set(`/${relative}`, {
        contentType,
        cacheControl: cacheControlFor(relative),
        identity: formOf(readFileSync(path.join(directory, entry.name))),
        coded,
      });
    }
  }
  return files;
}

/**
 * Sends a file of the build in the best coding the request accepts, or a 304 without a body while
 * the browser's copy of that coding is current. A Range header is ignored (RFC 9110 §14.2 allows it):
 * these files are small and browsers ask for them whole.
 */
export function sendBuildFile(request: FastifyRequest, reply: FastifyReply, file: BuildFile): FastifyReply {
  const acceptEncoding = request.headers['accept-encoding'];
  const available = [...file.coded.keys()];
  const coding =
    acceptEncoding && available.length > 0 ? (negotiate(acceptEncoding, available) as Coding | null) : null;
  const form = (coding !== null && file.coded.get(coding)) || file.identity;
  reply
    .header('cache-control', file.cacheControl)
    .header('etag', form.etag)
    .header('vary', 'Accept-Encoding');
  if (stillValid(request.headers['if-none-match'], form.etag)) return reply.code(304).send();
  if (form !== file.identity && coding !== null) reply.header('content-encoding', coding);
  return reply.type(file.contentType).send(form.bytes);
}
