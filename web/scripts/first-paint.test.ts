import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const webDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(webDir, file), 'utf8');

/** The custom properties of one theme's block in theme.css. */
function themeColours(theme: 'dark' | 'light'): Record<string, string> {
  const css = read('src/shell/theme.css');
  const block = css.match(new RegExp(`:root\\[data-theme="${theme}"\\][^{]*\\{([^}]*)\\}`))?.[1];
  if (!block) throw new Error(`theme.css has no ${theme} block`);
  return Object.fromEntries(
    [...block.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map(([, name, value]) => [name, value]),
  );
}

/** index.html parsed by the browser (no scripts run in a DOMParser document). */
function indexDocument(): Document {
  return new DOMParser().parseFromString(read('index.html'), 'text/html');
}

describe('index.html first paint', () => {
  it('has a title before the app names the page', () => {
    expect(indexDocument().title).toBe('Keycard');
  });

  it("gives the browser's bars each theme's bar colour, by the system's colour scheme", () => {
    const metas = [...indexDocument().querySelectorAll('meta[name="theme-color"]')];
    expect(metas.map((meta) => [meta.getAttribute('media'), meta.getAttribute('content')])).toEqual([
      ['(prefers-color-scheme: dark)', themeColours('dark')['--color-bar']],
      ['(prefers-color-scheme: light)', themeColours('light')['--color-bar']],
    ]);
  });

  it("paints the page in the theme's page and text colours before any file arrives", () => {
    const css = indexDocument().querySelector('head style')?.textContent ?? '';
    const dark = themeColours('dark');
    const light = themeColours('light');
    expect(css).toContain(`html { background: ${dark['--color-page']}; color: ${dark['--color-text']}; }`);
    expect(css).toContain(
      `html[data-theme="light"] { background: ${light['--color-page']}; color: ${light['--color-text']}; }`,
    );
  });
});
