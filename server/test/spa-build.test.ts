import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEB_DIST } from '../src/http/spa.ts';

/** The start-up module index.html loads (global-setup.ts builds web/dist when it is stale). */
function entryScript(): string {
  const html = readFileSync(path.join(DEFAULT_WEB_DIST, 'index.html'), 'utf8');
  const src = /<script type="module"[^>]*\bsrc="([^"]+)"/.exec(html)?.[1];
  if (!src) throw new Error('index.html loads no module script');
  return readFileSync(path.join(DEFAULT_WEB_DIST, src), 'utf8');
}

describe('the SPA build (web/dist)', () => {
  it("ships React's production build even when built under NODE_ENV=test or development", () => {
    // This run's build was made by the test set-up, under vitest's NODE_ENV=test. Only React's
    // production build links its minified errors to react.dev; the development build is twice the size.
    const entry = entryScript();
    expect(entry).toContain('react.dev/errors/');
    expect(entry).not.toContain('Each child in a list should have a unique');
  });
});
