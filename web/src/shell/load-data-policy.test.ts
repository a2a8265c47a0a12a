import { describe, expect, it } from 'vitest';
import { dataPolicyLanguage, loadDataPolicy } from './load-data-policy.ts';

describe('data policy language (SPEC §1)', () => {
  it('is German when the browser language starts with de, else English', () => {
    expect(dataPolicyLanguage('de')).toBe('de');
    expect(dataPolicyLanguage('de-CH')).toBe('de');
    expect(dataPolicyLanguage('DE-de')).toBe('de');
    expect(dataPolicyLanguage('en-GB')).toBe('en');
    expect(dataPolicyLanguage('fr')).toBe('en');
    expect(dataPolicyLanguage('')).toBe('en');
  });

  it('loads a different text for each language', async () => {
    const [de, en] = await Promise.all([loadDataPolicy('de-DE'), loadDataPolicy('en-US')]);
    expect(de.title).not.toBe(en.title);
    expect(en.sections.length).toBeGreaterThan(0);
  });
});
