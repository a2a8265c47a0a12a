import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BREAKPOINTS } from '@keycard/contract';
import { describe, expect, it } from 'vitest';

/** web/src */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(full);
    return entry.name.endsWith('.css') ? [full] : [];
  });
}

describe('responsive breakpoints (SPEC §9)', () => {
  it('are xs 576, sm 768, md 992, lg 1400, xl 1600, and each one is used by a media query', () => {
    expect(BREAKPOINTS).toEqual({ xs: 576, sm: 768, md: 992, lg: 1400, xl: 1600 });
    const css = cssFiles(SRC)
      .filter((file) => !file.endsWith(`${path.sep}base.css`))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    for (const width of Object.values(BREAKPOINTS)) {
      expect(css, `a rule at ${width}px`).toMatch(new RegExp(`\\(min-width:\\s*${width}px\\)`));
    }
  });

  it('media queries use only the breakpoints of the contract', () => {
    const allowed = Object.values(BREAKPOINTS);
    const used = cssFiles(SRC).flatMap((file) =>
      Array.from(readFileSync(file, 'utf8').matchAll(/\((?:min|max)-width:\s*(\d+)px\)/g), (m) =>
        Number(m[1]),
      ),
    );
    expect(used.length).toBeGreaterThan(0);
    expect(used.filter((width) => !(allowed as number[]).includes(width))).toEqual([]);
  });

  it('the custom-media comment lists every breakpoint', () => {
    const base = readFileSync(path.join(SRC, 'shell', 'base.css'), 'utf8');
    for (const [name, width] of Object.entries(BREAKPOINTS)) {
      expect(base).toContain(`@custom-media --${name} (min-width: ${width}px)`);
    }
  });
});
