import { describe, expect, it } from 'vitest';
import { themeAt } from './theme.ts';

const at = (hours: number, minutes: number) => new Date(2026, 0, 15, hours, minutes);

describe('themeAt (SPEC §9)', () => {
  it('is dark until 17:59 and light from 18:00 local time', () => {
    expect(themeAt(at(17, 59))).toBe('dark');
    expect(themeAt(at(18, 0))).toBe('light');
    expect(themeAt(at(23, 59))).toBe('light');
  });

  it('is dark again from midnight, as the rule has no morning switch', () => {
    expect(themeAt(at(0, 0))).toBe('dark');
    expect(themeAt(at(6, 0))).toBe('dark');
    expect(themeAt(at(12, 0))).toBe('dark');
  });
});
