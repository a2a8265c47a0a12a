import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LOCALIZED_TEXT_KEYS, SITE_TEXT_KEYS, TEXT_KEYS, textResourceSchema } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { de } from '../src/i18n/texts/de.ts';
import { en } from '../src/i18n/texts/en.ts';
import { DEFAULT_SITE } from '../src/site/site-texts.ts';
import { buildTestApp } from './support/app.ts';
import { useTestService } from './support/test-service.ts';

const service = useTestService();

describe('GET /api/i18n/getresource (SPEC §7)', () => {
  const app = () => service().app;

  async function resource(query: string) {
    const response = await app().inject({ method: 'GET', url: `/api/i18n/getresource${query}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    return textResourceSchema.parse(response.json());
  }

  it.each([
    ['?requestedLanguageCode=de', de],
    ['?requestedLanguageCode=de-AT', de],
    ['?requestedLanguageCode=DE-ch', de],
    ['?requestedLanguageCode=en-US', en],
    ['?requestedLanguageCode=fr', en],
    ['?requestedLanguageCode=', en],
    ['', en],
  ])('answers %j in the language chosen by primary subtag, English as fallback', async (query, texts) => {
    const body = await resource(query);
    for (const key of LOCALIZED_TEXT_KEYS) expect(body[key]).toBe(texts[key]);
  });

  it('answers every key of the contract, each non-empty, in both languages', async () => {
    for (const code of ['de', 'en']) {
      const body = await resource(`?requestedLanguageCode=${code}`);
      expect(Object.keys(body).sort()).toEqual([...TEXT_KEYS].sort());
      for (const key of TEXT_KEYS) expect(body[key].trim()).not.toBe('');
    }
  });

  it('merges the site values, each in the requested language', async () => {
    const german = await resource('?requestedLanguageCode=de');
    const english = await resource('?requestedLanguageCode=en');
    for (const key of SITE_TEXT_KEYS) {
      const value = DEFAULT_SITE[key];
      expect(german[key]).toBe(typeof value === 'string' ? value : value.de);
      expect(english[key]).toBe(typeof value === 'string' ? value : value.en);
    }
    expect(german.siteLegalRepresentative).toBe('Erika Mustermann, Geschäftsführerin (Beispiel)');
    expect(english.siteLegalRepresentative).toBe('Erika Mustermann, Managing Director (example)');
    expect(`${german.productNamePart1}${german.productNamePart2}`).toBe('Keycard');
  });

  it('refuses an oversized language code with 400 naming the field', async () => {
    const response = await app().inject({
      method: 'GET',
      url: `/api/i18n/getresource?requestedLanguageCode=${'de'.repeat(40)}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'bad_request', field: 'requestedLanguageCode' });
  });
});

describe('GET /api/i18n/getresource with SITE_FILE and injected texts', () => {
  it('answers the configured site values and the texts the app was built with', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'keycard-site-'));
    const siteFile = path.join(dir, 'site.json');
    await writeFile(
      siteFile,
      JSON.stringify({ ...DEFAULT_SITE, productNamePart1: 'Guest', productNamePart2: 'Gate' }),
    );
    const app = await buildTestApp(service().db, {
      env: { SITE_FILE: siteFile },
      texts: { en: { ...en, loginWelcome: 'Hello from the test' }, de },
    });
    try {
      const response = await app.inject({
        method: 'GET',
        url: '/api/i18n/getresource?requestedLanguageCode=en',
      });
      expect(response.json()).toMatchObject({
        loginWelcome: 'Hello from the test',
        productNamePart1: 'Guest',
        productNamePart2: 'Gate',
      });
    } finally {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
