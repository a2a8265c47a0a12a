import { getCalls, THEMES } from '@keycard/contract';
import { DemoPage } from '../pages/demo-page.ts';
import { ErrorPage } from '../pages/error-page.ts';
import { SignInPage } from '../pages/sign-in-page.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, test } from '../support/fixtures.ts';
import { defaultRedirectUrl, throughService } from '../support/recovery.ts';

/** Issue 16: the error page is no dead end: SPEC's two lines, a way back and the help contact. */

test.describe('the error page leads back and names the help contact', () => {
  test('with a ReturnUrl it leads back to that sign-in', async ({ page, texts }) => {
    const returnUrl = '/oidc/auth?client_id=demo';
    const query = `?ReturnUrl=${encodeURIComponent(returnUrl)}`;
    const error = new ErrorPage(page, `/error${query}`);
    await error.open();
    await expect(error.heading).toHaveText(texts.errorTitle);
    await expect(error.message(texts)).toBeVisible();
    const back = error.wayBack(texts.goToLoginLabel);
    await expect(back).toHaveAttribute('href', `/${query}`);
    await back.click();
    await expect(page).toHaveURL((url) => url.pathname === '/' && url.search === query);
    const signIn = new SignInPage(page);
    await expect(signIn.frame).toHaveAttribute('data-page-kind', 'unknownUser');
  });

  test('with a RedirectUrl it leads back to the application', async ({ page, texts, baseURL }) => {
    const application = `${baseURL}/demo`;
    const error = new ErrorPage(page, `/error?RedirectUrl=${encodeURIComponent(application)}`);
    await error.open();
    const back = error.wayBack(texts.backToApplication);
    await expect(back).toHaveAttribute('href', throughService(baseURL ?? '', application));
    await back.click();
    await expect(page).toHaveURL(application);
    await expect(new DemoPage(page).signInLink(texts)).toBeVisible();
  });

  test('a RedirectUrl no client registered leads to the default redirect, never to that site', async ({
    page,
    texts,
    baseURL,
  }) => {
    const stranger = 'https://sign-in.example/keycard';
    const error = new ErrorPage(page, `/error?RedirectUrl=${encodeURIComponent(stranger)}`);
    await error.open();
    const back = error.wayBack(texts.backToApplication);
    await expect(back).toHaveAttribute('href', throughService(baseURL ?? '', stranger));
    await back.click();
    await expect(page).toHaveURL(defaultRedirectUrl(baseURL ?? ''));
    await expect(new DemoPage(page).signInLink(texts)).toBeVisible();
  });

  test('without either it leads to the default redirect; it names the phone and e-mail of the site file', async ({
    page,
    texts,
    baseURL,
  }) => {
    const error = new ErrorPage(page, '/error');
    await error.open();
    const help = error.help(texts);
    await expect(help.getByRole('heading', { level: 2 })).toHaveText(texts.helpLabel);
    const phone = help.getByRole('link', { name: texts.sitePhone, exact: true });
    await expect(phone).toHaveAttribute('href', `tel:${texts.sitePhone.replace(/[^\d+]/g, '')}`);
    const email = help.getByRole('link', { name: texts.siteEmail, exact: true });
    await expect(email).toHaveAttribute('href', `mailto:${texts.siteEmail}`);

    // DEFAULT_REDIRECT_URL is the service's setting: the page links to the service, which answers 303 there.
    const back = error.wayBack(texts.goToStartPage);
    await expect(back).toHaveAttribute('href', getCalls.defaultRedirect.path);
    await back.click();
    await expect(page).toHaveURL(defaultRedirectUrl(baseURL ?? ''));
    await expect(new DemoPage(page).signInLink(texts)).toBeVisible();
  });

  for (const theme of THEMES) {
    test.describe(`${theme} theme`, () => {
      test.use({ theme });

      test('axe-core finds no violations on the error page with its reference, way back and help', async ({
        page,
        texts,
      }) => {
        const error = new ErrorPage(page, '/error/7K2M9QXD?reason=unavailable');
        await error.open();
        await expect(error.unavailable(texts)).toBeVisible();
        await expect(error.wayBack(texts.goToStartPage)).toBeVisible();
        expect(await axeViolations(page)).toEqual([]);
      });
    });
  }
});
