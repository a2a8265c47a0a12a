import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.ts';
import { useTestService } from './support/test-service.ts';

const INDEX = '<!doctype html><title>Keycard</title><div id="root"></div>';
const SCRIPT = 'console.log("keycard");';

/** A miniature web/dist as Vite lays it out. */
async function fixtureDist(dist: string): Promise<void> {
  await mkdir(path.join(dist, 'assets'), { recursive: true });
  await mkdir(path.join(dist, 'images', 'background', 'dark', '1920'), { recursive: true });
  await writeFile(path.join(dist, 'index.html'), INDEX);
  await writeFile(path.join(dist, 'assets', 'index-3f2a1b.js'), SCRIPT);
  await writeFile(
    path.join(dist, 'images', 'background', 'dark', '1920', 'unlock.jpg'),
    Buffer.from([0xff, 0xd8, 0xff]),
  );
  await writeFile(path.join(dist, '.env'), 'SECRET=1');
}

// The build is laid out before the service starts (hooks run in order) and removed after it
// stopped (after-hooks run in reverse).
const dist = path.join(tmpdir(), `keycard-dist-${randomUUID()}`);
beforeAll(() => fixtureDist(dist));
afterAll(() => rm(dist, { recursive: true, force: true }));
const service = useTestService({ webDist: dist });

describe('SPA and static files', () => {
  const app = () => service().app;

  it.each([
    '/',
    '/?ReturnUrl=%2Foidc%2Fauth',
    '/resetPassword/1/abc',
    '/RESETPASSWORD/2/x',
    '/locked/',
    '/any/path',
  ])('answers %s with index.html, revalidated on every load', async (url) => {
    const response = await app().inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(INDEX);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('answers HEAD for pages too', async () => {
    const response = await app().inject({ method: 'HEAD', url: '/forgotPassword' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
  });

  it('serves hashed assets as immutable and images with a day of caching', async () => {
    const script = await app().inject({ method: 'GET', url: '/assets/index-3f2a1b.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe(SCRIPT);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const image = await app().inject({ method: 'GET', url: '/images/background/dark/1920/unlock.jpg' });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['cache-control']).toBe('public, max-age=86400');
  });

  it('answers missing build files with 404 instead of the page', async () => {
    for (const url of ['/assets/index-000000.js', '/images/background/light/1920/unlock.jpg', '/assets/']) {
      const response = await app().inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('<!doctype');
    }
  });

  it('never answers /api or /oidc paths, or other methods, with the page', async () => {
    for (const [method, url] of [
      ['GET', '/api/unknown'],
      ['GET', '/oidc/.well-known/unknown'],
      ['GET', '/OIDC'],
    ] as const) {
      const response = await app().inject({ method, url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found' });
    }
    // A page takes GET and HEAD only.
    const deleted = await app().inject({ method: 'DELETE', url: '/resetPassword/1/abc' });
    expect(deleted.statusCode).toBe(405);
    expect(deleted.json()).toMatchObject({ code: 'method_not_allowed' });
  });

  it('serves neither dotfiles nor anything outside the build', async () => {
    for (const url of [
      '/.env',
      '/assets/..%2f..%2fpackage.json',
      '/../package.json',
      '/%2e%2e/%2e%2e/package.json',
    ]) {
      const response = await app().inject({ method: 'GET', url });
      expect(response.body).not.toContain('SECRET=1');
      expect(response.body).not.toContain('"workspaces"');
    }
  });
});

describe('SPA not built', () => {
  it('answers pages with a 503 that says how to build, while the API keeps working', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'keycard-nodist-'));
    const app = await buildTestApp(service().db, { webDist: path.join(empty, 'dist') });
    try {
      const page = await app.inject({ method: 'GET', url: '/forgotPassword' });
      expect(page.statusCode).toBe(503);
      expect(page.headers['content-type']).toMatch(/^text\/plain/);
      expect(page.body).toContain('not built');
      expect(page.body).toContain('npm run build');
      expect((await app.inject({ method: 'GET', url: '/api/getcsrftoken' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});
