import {
  LANGUAGES,
  type Language,
  LIGHT_THEME_FROM_HOUR,
  languageFor,
  type TextResource,
  type Theme,
  textResourceSchema,
} from '@keycard/contract';
import { test as base, type Page } from '@playwright/test';
import { type Account, demoAccountFromEnv, freshAccount } from './accounts.ts';
import { type AdminApi, adminApi } from './admin.ts';
import { BASE_URL_ENV } from './paths.ts';

/** Every browser in the journeys lives in this zone; times below are local to it. */
export const TIME_ZONE = 'Europe/Berlin';

/**
 * An instant that is hh:mm local time in TIME_ZONE (a January day, so UTC+01:00 without daylight
 * saving). The SPA chooses its theme from the browser's local hour (SPEC §9).
 */
export function localTime(hour: number, minute = 0): Date {
  const hh = String(hour).padStart(2, '0');
  const mm = String(minute).padStart(2, '0');
  return new Date(`2026-01-15T${hh}:${mm}:00+01:00`);
}

/** A local time of day that selects each theme: 10:00 is dark, 19:00 is light. */
export const THEME_TIME: Readonly<Record<Theme, Date>> = {
  dark: localTime(10),
  light: localTime(LIGHT_THEME_FROM_HOUR + 1),
};

/** The browser locale used for each language of the text resource. */
export const LOCALE: Readonly<Record<Language, string>> = { en: 'en-US', de: 'de-DE' };

/**
 * The tag of a journey that repeats another one's flow in a further language: its page's language
 * and theme differ, not what the store does, so CI's PostgreSQL pass (`npm test -- --store-only`,
 * scripts/test.mjs) leaves it out; the embedded store's pass runs every language.
 */
const LANGUAGE_REPEAT_TAG = '@language-repeat';

/** The describe details of `language`'s run of a flow: the first language plain, the others tagged. */
export function languageRun(language: Language): { tag?: string } {
  return language === LANGUAGES[0] ? {} : { tag: LANGUAGE_REPEAT_TAG };
}

function serviceOrigin(): string {
  const origin = process.env[BASE_URL_ENV];
  if (!origin) throw new Error(`${BASE_URL_ENV} is not set: run the journeys through playwright.config.ts`);
  return origin;
}

/** Fetches the text resource exactly as the SPA does and checks it against the contract. */
async function fetchTexts(language: Language): Promise<TextResource> {
  const url = new URL('/api/i18n/getresource', serviceOrigin());
  url.searchParams.set('requestedLanguageCode', language);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return textResourceSchema.parse(await response.json());
}

interface WorkerFixtures {
  /** The service's text resource in every language, fetched once per worker. */
  resources: Readonly<Record<Language, TextResource>>;
  /**
   * The demo account the service printed at its first start. Shared by every worker: journeys only
   * sign in with it, never fail on purpose, so its failure counter stays at zero.
   */
  demoAccount: Account;
  /**
   * The admin HTTP API, with an admin client this worker registered once with the CLI: accounts are
   * provisioned through it (a CLI process per account cost 1-5 s on the CI machine).
   */
  adminApi: AdminApi;
}

interface TestFixtures {
  /** Theme the browser clock is set for before the page opens. */
  theme: Theme;
  /** The language the browser's locale selects. */
  language: Language;
  /** The text resource of that language; expected wording always comes from here. */
  texts: TextResource;
  /** A fresh account of this test alone, created through the admin API while the service runs. */
  newAccount: Account;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  baseURL: async ({}, use) => {
    await use(serviceOrigin());
  },
  timezoneId: TIME_ZONE,
  locale: LOCALE.en,
  theme: ['dark', { option: true }],
  resources: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const entries = await Promise.all(
        LANGUAGES.map(async (lang) => [lang, await fetchTexts(lang)] as const),
      );
      await use(Object.fromEntries(entries) as Record<Language, TextResource>);
    },
    { scope: 'worker' },
  ],
  demoAccount: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      await use(demoAccountFromEnv());
    },
    { scope: 'worker' },
  ],
  adminApi: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      await use(await adminApi(serviceOrigin()));
    },
    { scope: 'worker' },
  ],
  newAccount: async ({ adminApi }, use, testInfo) => {
    const account = freshAccount(testInfo.title);
    const { email, name, password } = account;
    await adminApi('POST', '/users', { email, name, password });
    await use(account);
  },
  language: async ({ locale }, use) => {
    await use(languageFor(locale));
  },
  texts: async ({ resources, language }, use) => {
    await use(resources[language]);
  },
  page: async ({ page, theme }, use) => {
    // A fixed wall clock; timers still run, so animations and delays behave as usual.
    await page.clock.setFixedTime(THEME_TIME[theme]);
    await use(page);
  },
});

export { expect } from '@playwright/test';

/** Sets the browser's wall clock to hh:mm local time before the next navigation. */
export async function setLocalTime(page: Page, hour: number, minute: number): Promise<void> {
  await page.clock.setFixedTime(localTime(hour, minute));
}
