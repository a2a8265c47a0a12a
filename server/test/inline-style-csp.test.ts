import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestService } from './support/test-service.ts';

const FIRST_PAINT = '\n      html { background: #14171b; }\n    ';
const INDEX = `<!doctype html><html><head><title>Keycard</title><style>${FIRST_PAINT}</style></head><body><div id="root"></div></body></html>`;

/** A miniature web/dist whose index.html carries one inline style block. */
const dist = path.join(tmpdir(), `keycard-dist-${randomUUID()}`);
beforeAll(async () => {
  await mkdir(dist, { recursive: true });
  await writeFile(path.join(dist, 'index.html'), INDEX);
});
afterAll(() => rm(dist, { recursive: true, force: true }));
const service = useTestService({ webDist: dist });

function styleSources(policy: string): string[] {
  const directive = policy
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('style-src '));
  return directive?.split(/\s+/).slice(1) ?? [];
}

describe("CSP for the page's first-paint style", () => {
  it("allows index.html's inline style block by its SHA-256, and no other inline style", async () => {
    const response = await service().app.inject({ method: 'GET', url: '/?ReturnUrl=%2Foidc%2Fauth' });
    expect(response.statusCode).toBe(200);
    const hash = createHash('sha256').update(FIRST_PAINT, 'utf8').digest('base64');
    const sources = styleSources(String(response.headers['content-security-policy']));
    expect(sources).toEqual(["'self'", `'sha256-${hash}'`]);
    expect(sources).not.toContain("'unsafe-inline'");
  });

  it('keeps script-src to the origin: the page needs no inline script', async () => {
    const response = await service().app.inject({ method: 'GET', url: '/locked' });
    expect(String(response.headers['content-security-policy'])).toContain("script-src 'self';");
  });
});
