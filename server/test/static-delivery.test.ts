import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';

const testDb = useTestDatabase();
const INDEX = `<!doctype html><title>Keycard</title><div id="root"></div>${' '.repeat(200)}`;
const SCRIPT = `export const greeting = "${'keycard '.repeat(100)}";`;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** What Chrome sends for an <img> or an image preload. */
const CHROME_IMAGE_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** A miniature web/dist as the build lays it out: text files with .br and .gz copies, background forms. */
async function fixtureDist(): Promise<string> {
  const dist = await mkdtemp(path.join(tmpdir(), 'keycard-static-'));
  const write = async (file: string, data: string | Buffer) => {
    await mkdir(path.dirname(path.join(dist, file)), { recursive: true });
    await writeFile(path.join(dist, file), data);
  };
  const withCopies = async (file: string, text: string) => {
    await write(file, text);
    await write(`${file}.br`, brotliCompressSync(text));
    await write(`${file}.gz`, gzipSync(text));
  };
  await withCopies('index.html', INDEX);
  await withCopies('assets/index-3f2a1b.js', SCRIPT);
  await write('assets/tiny-9c8d7e.css', 'a{}');
  // Each background form holds its own name, so a test sees which one was sent.
  for (const form of ['1920/unknownUser1.jpg', '1920/unknownUser1.avif', '1920/unknownUser1.webp']) {
    await write(`images/background/dark/${form}`, form);
  }
  for (const form of ['608/unknownUser1.jpg', '608/unknownUser1.avif', '608/unknownUser1.webp']) {
    await write(`images/background/dark/${form}`, form);
  }
  await write('images/background/dark/1920/unlock.jpg', '1920/unlock.jpg');
  return dist;
}

describe('static delivery: caching and content negotiation', () => {
  let dist: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dist = await fixtureDist();
    app = await buildTestApp(testDb().db, { webDist: dist });
  });
  afterAll(async () => {
    await app.close();
    await rm(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers });

  describe('hashed assets', () => {
    it.each([
      ['br', 'br', brotliDecompressSync],
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['br;q=0, gzip', 'gzip', gunzipSync],
    ] as const)('Accept-Encoding %j gets the %s copy, cached for a year', async (accept, coding, decode) => {
      const response = await get('/assets/index-3f2a1b.js', { 'accept-encoding': accept });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(coding);
      expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
      expect(response.headers['cache-control']).toBe(IMMUTABLE);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(decode(response.rawPayload).toString()).toBe(SCRIPT);
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.byteLength);
      expect(response.rawPayload.byteLength).toBeLessThan(SCRIPT.length);
    });

    it('sends the file itself to a client that accepts no coding, with the same caching', async () => {
      for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
        const response = await get('/assets/index-3f2a1b.js', headers);
        expect(response.headers['content-encoding']).toBeUndefined();
        expect(response.body).toBe(SCRIPT);
        expect(response.headers['cache-control']).toBe(IMMUTABLE);
        expect(response.headers.vary).toMatch(/accept-encoding/i);
      }
    });

    it('sends a file without copies as it is, whatever the client accepts', async () => {
      const response = await get('/assets/tiny-9c8d7e.css', { 'accept-encoding': 'br, gzip' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body).toBe('a{}');
      expect(response.headers['cache-control']).toBe(IMMUTABLE);
    });

    it('answers 304 while the ETag of the coding asked for matches, and the file again once it does not', async () => {
      const br = await get('/assets/index-3f2a1b.js', { 'accept-encoding': 'br' });
      const again = await get('/assets/index-3f2a1b.js', {
        'accept-encoding': 'br',
        'if-none-match': String(br.headers.etag),
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers['cache-control']).toBe(IMMUTABLE);
      // The gzip bytes differ from the Brotli bytes the browser holds: it gets them whole.
      const gzip = await get('/assets/index-3f2a1b.js', {
        'accept-encoding': 'gzip',
        'if-none-match': String(br.headers.etag),
      });
      expect(gzip.statusCode).toBe(200);
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);
    });

    it('answers HEAD with the headers of the GET and no body, and a Range request with the whole file', async () => {
      const head = await app.inject({ method: 'HEAD', url: '/assets/index-3f2a1b.js' });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['cache-control']).toBe(IMMUTABLE);
      expect(head.headers['content-type']).toMatch(/javascript/);
      const ranged = await get('/assets/index-3f2a1b.js', { range: 'bytes=0-9' });
      expect(ranged.statusCode).toBe(200);
      expect(ranged.body).toBe(SCRIPT);
    });

    it('gives each coding its own ETag', async () => {
      const br = await get('/assets/index-3f2a1b.js', { 'accept-encoding': 'br' });
      const plain = await get('/assets/index-3f2a1b.js');
      expect(br.headers.etag).toBeTruthy();
      expect(plain.headers.etag).toBeTruthy();
      expect(br.headers.etag).not.toBe(plain.headers.etag);
    });
  });

  describe('index.html', () => {
    it.each(['/', '/resetPassword/1/abc'])(
      '%s: Brotli, no-cache, and a 304 while the ETag matches',
      async (url) => {
        const first = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
        expect(first.statusCode).toBe(200);
        expect(first.headers['content-encoding']).toBe('br');
        expect(first.headers['content-type']).toMatch(/^text\/html/);
        expect(first.headers['cache-control']).toBe('no-cache');
        expect(first.headers.vary).toMatch(/accept-encoding/i);
        expect(brotliDecompressSync(first.rawPayload).toString()).toBe(INDEX);
        const etag = String(first.headers.etag);
        expect(etag).not.toBe('undefined');

        const again = await get(url, { 'accept-encoding': 'gzip, deflate, br', 'if-none-match': etag });
        expect(again.statusCode).toBe(304);
        expect(again.body).toBe('');
        const changed = await get(url, {
          'accept-encoding': 'gzip, deflate, br',
          'if-none-match': 'W/"old"',
        });
        expect(changed.statusCode).toBe(200);
      },
    );
  });

  describe('headers', () => {
    // Worked out once at start-up (http/security-headers.ts), sent alike on every answer.
    const SECURITY_HEADERS = {
      'content-security-policy':
        "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;connect-src 'self';" +
        "font-src 'self';object-src 'none';base-uri 'none';frame-ancestors 'none';form-action 'self'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };

    it('are the same security headers on index.html, a hashed asset, a page and an API answer', async () => {
      const answers = [
        await get('/', { 'accept-encoding': 'br' }),
        await get('/assets/index-3f2a1b.js', { 'accept-encoding': 'br' }),
        await get('/resetPassword/1/abc', { 'accept-encoding': 'br' }),
        await get('/assets/index-3f2a1b.js', { 'if-none-match': '"any"' }),
        await get('/api/getcsrftoken'),
      ];
      for (const answer of answers) {
        expect(answer.statusCode).toBe(200);
        for (const [name, value] of Object.entries(SECURITY_HEADERS))
          expect(answer.headers[name], name).toBe(value);
        expect(answer.headers['strict-transport-security']).toBeUndefined();
      }
      // Each its own request id, and the caching of what it is.
      const ids = answers.map((answer) => String(answer.headers['x-request-id']));
      for (const id of ids) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
      expect(new Set(ids).size).toBe(answers.length);
      expect(answers.map((answer) => answer.headers['cache-control'])).toEqual([
        'no-cache',
        IMMUTABLE,
        'no-cache',
        IMMUTABLE,
        'no-store',
      ]);
    });

    it('keep them on a 304', async () => {
      const first = await get('/', { 'accept-encoding': 'br' });
      const again = await get('/', { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
      expect(again.statusCode).toBe(304);
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        expect(again.headers[name], name).toBe(value);
      expect(again.headers['cache-control']).toBe('no-cache');
      expect(again.headers.vary).toMatch(/accept-encoding/i);
      expect(again.headers['x-request-id']).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    });
  });

  describe('the text resource (GET /api/i18n/getresource)', () => {
    const url = '/api/i18n/getresource?requestedLanguageCode=de-DE';

    it('is compressed by Accept-Encoding, revalidated on every use, with one ETag for every coding', async () => {
      const plain = await get(url);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['content-type']).toMatch(/^application\/json/);
      expect(plain.headers['cache-control']).toBe('no-cache');
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      const text = plain.body;
      expect(JSON.parse(text)).toMatchObject({});

      const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(text);
      expect(br.rawPayload.byteLength).toBeLessThan(text.length / 2);
      const gzip = await get(url, { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(text);

      expect(plain.headers.etag).toMatch(/^W\/"[\w-]+"$/);
      expect(br.headers.etag).toBe(plain.headers.etag);
      expect(gzip.headers.etag).toBe(plain.headers.etag);
      const english = await get('/api/i18n/getresource?requestedLanguageCode=en');
      expect(english.headers.etag).not.toBe(plain.headers.etag);
    });

    it('answers 304 without a body while the ETag matches, still no-cache', async () => {
      const { etag } = (await get(url)).headers;
      const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(etag) });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers['cache-control']).toBe('no-cache');
      expect(again.headers.etag).toBe(etag);
      const stale = await get(url, { 'if-none-match': 'W/"another"' });
      expect(stale.statusCode).toBe(200);
    });
  });

  describe('backgrounds (SPEC §7 path)', () => {
    const spec = '/images/background/dark/1920/unknownUser1.jpg';

    it.each([
      ['a desktop browser taking AVIF', CHROME_IMAGE_ACCEPT, DESKTOP, '1920/unknownUser1.avif', 'image/avif'],
      [
        'a desktop browser taking WebP only',
        'image/webp,*/*',
        DESKTOP,
        '1920/unknownUser1.webp',
        'image/webp',
      ],
      ['a client naming no image format', '*/*', DESKTOP, '1920/unknownUser1.jpg', 'image/jpeg'],
      ['AVIF refused with q=0', 'image/avif;q=0,image/webp', DESKTOP, '1920/unknownUser1.webp', 'image/webp'],
      ['a phone taking AVIF', CHROME_IMAGE_ACCEPT, IPHONE, '608/unknownUser1.avif', 'image/avif'],
      ['a phone naming no image format', '*/*', IPHONE, '608/unknownUser1.jpg', 'image/jpeg'],
    ])('%s gets %s', async (_who, accept, userAgent, sent, type) => {
      const response = await get(spec, { accept, 'user-agent': userAgent });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(sent);
      expect(response.headers['content-type']).toBe(type);
      expect(response.headers['cache-control']).toBe('public, max-age=86400');
      expect(response.headers.vary).toBe('Accept, User-Agent');
    });

    it('falls back to the JPEG where the build has no other form of the picture', async () => {
      const response = await get('/images/background/dark/1920/unlock.jpg', {
        accept: CHROME_IMAGE_ACCEPT,
        'user-agent': IPHONE,
      });
      expect(response.body).toBe('1920/unlock.jpg');
      expect(response.headers['content-type']).toBe('image/jpeg');
    });

    it('serves each form under its own path too', async () => {
      const response = await get('/images/background/dark/608/unknownUser1.avif');
      expect(response.body).toBe('608/unknownUser1.avif');
      expect(response.headers['content-type']).toBe('image/avif');
    });

    it('answers pictures that do not exist, and anything outside them, with 404', async () => {
      for (const url of [
        '/images/background/light/1920/unknownUser1.jpg',
        '/images/background/dark/1920/unknownUser9.jpg',
        '/images/background/dark/1920/unknownUser1.png',
        '/images/background/..%2F..%2Fassets/1920/index-3f2a1b.js',
        '/images/background/dark/1920/..%2F..%2F..%2F..%2Findex.html',
      ]) {
        const response = await get(url, { accept: CHROME_IMAGE_ACCEPT });
        expect(response.statusCode).toBe(404);
        expect(response.body).not.toContain('<!doctype');
        expect(response.body).not.toContain('keycard');
      }
    });
  });
});
