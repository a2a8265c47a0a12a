import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { THEMES, type Theme } from '@keycard/contract';
import { describe, expect, it } from 'vitest';

const css = readFileSync(fileURLToPath(import.meta.url).replace(/[^/\\]+$/, 'theme.css'), 'utf8');

/** The hex custom properties of one theme block. */
function palette(theme: Theme): Record<string, string> {
  const block = new RegExp(`:root\\[data-theme=["']${theme}["']\\]\\s*\\{([^}]*)\\}`).exec(css)?.[1] ?? '';
  return Object.fromEntries(
    Array.from(block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/gi), (m) => [m[1], m[2]]),
  );
}

/** WCAG 2 relative luminance and contrast ratio. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((c) =>
    c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const TEXT_PAIRS = [
  ['text', 'surface'],
  ['text-muted', 'surface'],
  ['link', 'surface'],
  ['accent', 'surface'],
  ['error', 'surface'],
  ['success', 'surface'],
  ['text', 'bar'],
  ['link', 'bar'],
  ['accent', 'bar'],
  ['button-text', 'button'],
] as const;

describe.each(THEMES)('%s theme colours (WCAG AA)', (theme) => {
  const colours = palette(theme);

  it.each(TEXT_PAIRS)('--color-%s on --color-%s reaches 4.5:1', (fg, bg) => {
    const ratio = contrast(colours[`color-${fg}`] ?? '', colours[`color-${bg}`] ?? '');
    expect(ratio).toBeGreaterThanOrEqual(4.5);
  });

  it('focus ring reaches 3:1 against the surfaces', () => {
    for (const bg of ['surface', 'bar']) {
      expect(contrast(colours['color-focus'] ?? '', colours[`color-${bg}`] ?? '')).toBeGreaterThanOrEqual(3);
    }
  });
});
