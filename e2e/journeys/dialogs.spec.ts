import { LANGUAGES } from '@keycard/contract';
import type { Page } from '@playwright/test';
import { FallbackLandingPage } from '../pages/fallback-landing-page.ts';
import { DIALOG_LABEL_KEYS } from '../pages/footer-dialogs.ts';
import { SignInPage } from '../pages/sign-in-page.ts';
import { expect, LOCALE, test } from '../support/fixtures.ts';

test.describe('footer dialogs by keyboard only (SPEC §1)', () => {
  const screens = [
    ['fallback landing page', (page: Page) => new FallbackLandingPage(page)],
    ['sign-in page', (page: Page) => new SignInPage(page)],
  ] as const;

  for (const [screenName, screenAt] of screens) {
    for (const key of DIALOG_LABEL_KEYS) {
      test(`${key} on the ${screenName}: Tab, Enter opens with focus inside, Escape closes and returns focus`, async ({
        page,
        texts,
      }) => {
        const screen = screenAt(page);
        await screen.open();
        const opener = screen.footer.button(texts, key);

        const dialog = await screen.footer.openByKeyboard(texts, key);
        await expect(dialog).toHaveAccessibleName(texts[key]);
        expect(await screen.footer.focusIsInsideDialog()).toBe(true);
        // The page behind a modal dialog is inert: Tab cycles through the dialog (and the browser's
        // own controls, as a native modal dialog allows) but never reaches the page behind it.
        const places: string[] = [];
        for (let presses = 0; presses < 8; presses += 1) {
          await page.keyboard.press('Tab');
          places.push(await screen.footer.focusPlace());
        }
        expect(places).not.toContain('page');
        expect(places.filter((place) => place === 'dialog').length).toBeGreaterThanOrEqual(4);

        await screen.footer.closeByEscape();
        await expect(opener).toBeFocused();
      });
    }
  }
});

test.describe('dialog contents', () => {
  test('Help shows the provider phone number and support e-mail address', async ({ page, texts }) => {
    const landing = new FallbackLandingPage(page);
    await landing.open();
    const help = await landing.footer.open(texts, 'helpLabel');
    await expect(help.getByText(texts.sitePhone)).toBeVisible();
    await expect(help.getByText(texts.siteEmail)).toBeVisible();
  });

  test('Imprint shows the company details, the legal hint with this host and the shipped components', async ({
    page,
    request,
    texts,
    baseURL,
  }) => {
    const landing = new FallbackLandingPage(page);
    await landing.open();
    const imprint = await landing.footer.open(texts, 'imprintLabel');

    const fields = [
      'imprintCompany',
      'imprintAddress',
      'imprintLegalRepresentative',
      'imprintCommercialRegister',
      'imprintVat',
      'imprintTelephone',
      'imprintFax',
      'imprintEmail',
      'imprintWeb',
      'imprintDataProtectionOfficial',
    ] as const;
    for (const field of fields) {
      await expect(imprint.getByText(texts[field], { exact: true })).toBeVisible();
    }
    await expect(imprint.getByText(texts.siteCompany, { exact: true })).toBeVisible();

    const host = new URL(baseURL ?? '').host;
    const [hintStart] = texts.imprintLegalHint.split('{host}');
    await expect(imprint.getByText(hintStart ?? texts.imprintLegalHint)).toContainText(host);

    await expect(imprint.getByRole('heading', { name: texts.imprintUsedComponents })).toBeVisible();
    const rows = imprint.getByRole('table').getByRole('row');
    const listed = await request.get('/licenses.json');
    expect(listed.status()).toBe(200);
    const shipped = (await listed.json()) as { name: string }[];
    // One header row, then one row per shipped component.
    await expect(rows).toHaveCount(shipped.length + 1);
    const names = await imprint.locator('tbody tr td:first-child').allTextContents();
    // React renders the SPA: its DOM renderer and what that runs on ship, and are listed.
    expect(names).toEqual(expect.arrayContaining(['react', 'react-dom', 'scheduler']));
    expect(names).not.toContain('preact');
    // Runtime only: what ships to the browser and what the service runs, never the build's tools.
    for (const buildTool of [
      'vite',
      '@vitejs/plugin-react',
      'rolldown',
      'esbuild',
      'sharp',
      'typescript',
      'tsx',
      'drizzle-kit',
      'vitest',
      '@biomejs/biome',
      '@playwright/test',
      'smtp-server',
    ]) {
      expect(names, buildTool).not.toContain(buildTool);
    }
    expect(names).toEqual(expect.arrayContaining(['fastify', 'oidc-provider', '@zxcvbn-ts/core']));
  });

  for (const language of LANGUAGES) {
    test.describe(`under ${LOCALE[language]}`, () => {
      test.use({ locale: LOCALE[language] });

      test(`Imprint shows every site value in ${language === 'de' ? 'German' : 'English'}`, async ({
        page,
        resources,
        texts,
      }) => {
        const other = language === 'de' ? resources.en : resources.de;
        const landing = new FallbackLandingPage(page);
        await landing.open();
        const imprint = await landing.footer.open(texts, 'imprintLabel');
        const values = [
          'siteCompany',
          'siteAddress',
          'siteLegalRepresentative',
          'siteCommercialRegister',
          'siteVat',
          'siteDataProtectionOfficial',
        ] as const;
        for (const key of values) {
          await expect(imprint.getByText(texts[key], { exact: true }), key).toBeVisible();
          // A value written per language shows only in the viewer's language.
          if (other[key] !== texts[key]) await expect(imprint, key).not.toContainText(other[key]);
        }
        // The shipped example company writes these per language.
        await expect(imprint).toContainText(language === 'de' ? 'Deutschland' : 'Germany');
        await expect(imprint).toContainText(language === 'de' ? 'Geschäftsführerin' : 'Managing Director');
      });

      test(`Data policy is in ${language === 'de' ? 'German' : 'English'} and dated 29.05.2018`, async ({
        page,
        texts,
      }) => {
        const landing = new FallbackLandingPage(page);
        await landing.open();
        const policy = await landing.footer.open(texts, 'dataPolicyLabel');
        const date = policy.locator('time[datetime="2018-05-29"]');
        await expect(date).toBeVisible();

        if (language === 'de') {
          await expect(date).toHaveText('29.05.2018');
          await expect(policy).toContainText('DSGVO');
          await expect(policy).toContainText('4 Wochen');
          await expect(policy).not.toContainText('GDPR');
        } else {
          // The visible English date names the same day.
          const shown = new Date((await date.textContent()) ?? '');
          expect([shown.getFullYear(), shown.getMonth() + 1, shown.getDate()]).toEqual([2018, 5, 29]);
          await expect(policy).toContainText('GDPR');
          await expect(policy).toContainText('4 weeks');
          await expect(policy).not.toContainText('DSGVO');
        }
      });
    });
  }

  test.describe('under fr-FR', () => {
    test.use({ locale: 'fr-FR' });

    test('texts and Data policy fall back to English', async ({ page, resources }) => {
      const landing = new FallbackLandingPage(page);
      await landing.open();
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(landing.heading).toHaveText(resources.en.fallbackWelcome);
      const policy = await landing.footer.open(resources.en, 'dataPolicyLabel');
      await expect(policy).toContainText('GDPR');
    });
  });
});
