import { fillText, getCalls, VerificationType } from '@keycard/contract';
import { DEMO_PRODUCT_NAME } from '../pages/demo-page.ts';
import { ErrorPage } from '../pages/error-page.ts';
import { ForgotPasswordPage } from '../pages/forgot-password-page.ts';
import { ResetPasswordPage } from '../pages/reset-password-page.ts';
import { SignInPage } from '../pages/sign-in-page.ts';
import { strongPassword } from '../support/accounts.ts';
import { expect, test } from '../support/fixtures.ts';
import { mailLink, type SunkMail, waitForMails } from '../support/mailbox.ts';
import { BASE_URL_ENV } from '../support/paths.ts';
import { type RelyingParty, relyingParty } from '../support/relying-party.ts';

/**
 * Authorization requests a relying party builds itself (openid-client), with the parameters of
 * OpenID Connect Core §3.1.2.1 that reach the sign-in page: login_hint and ui_locales.
 */

function origin(): string {
  const value = process.env[BASE_URL_ENV];
  if (!value) throw new Error(`${BASE_URL_ENV} is not set: run the journeys through playwright.config.ts`);
  return value;
}

const RESET_LINK_PATH = `/resetPassword/${VerificationType.PasswordReset}/`;

let rp: RelyingParty;
test.beforeEach(async () => {
  rp = await relyingParty(origin());
});

test('login_hint: the page goes straight to the password step, Back changes the address, and sign-in completes', async ({
  page,
  texts,
  newAccount,
}) => {
  const signIn = new SignInPage(page);
  await rp.authorize(page, { login_hint: newAccount.email });

  // No e-mail step to pass: the address is shown read-only and the password has the focus.
  await expect(signIn.passwordField(texts)).toBeFocused();
  await expect(signIn.emailField(texts)).toHaveValue(newAccount.email);
  await expect(signIn.emailField(texts)).not.toBeEditable();
  await expect(signIn.heading).toHaveText(signIn.expectedHeading(texts, DEMO_PRODUCT_NAME));

  // The way back: the address can be changed, and Next brings the password step again.
  await signIn.backButton(texts).click();
  await expect(signIn.emailField(texts)).toBeEditable();
  await expect(signIn.emailField(texts)).toBeFocused();
  await expect(signIn.emailField(texts)).toHaveValue(newAccount.email);
  await signIn.nextButton(texts).click();
  const claims = rp.redeemAtCallback(page);
  await signIn.submitPassword(texts, newAccount.password);
  expect(await claims).toMatchObject({ email: newAccount.email, name: newAccount.name });
});

test('ui_locales=de: an English browser gets the sign-in page, the forgot-password and reset pages and their mail in German', async ({
  page,
  resources,
  newAccount,
}) => {
  const de = resources.de;
  const signIn = new SignInPage(page);
  await rp.authorize(page, { ui_locales: 'fr-CA de' });

  await expect(signIn.heading).toHaveText(fillText(de.loginWelcome, { product: DEMO_PRODUCT_NAME }));
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(signIn.emailField(de)).toBeEditable();
  await expect(signIn.nextButton(de)).toBeVisible();

  // The forgot-password page of that sign-in, and the mail asked for there.
  await page.getByRole('link', { name: de.forgotPasswordLabel, exact: true }).click();
  const forgot = new ForgotPasswordPage(page);
  await expect(forgot.heading).toHaveText(de.forgotPassword);
  await forgot.requestReset(de, newAccount.email);
  const [mail] = await waitForMails(newAccount.email, 1);
  expect(mail?.subject).toContain('zurücksetzen');

  // The reset page of that mail's link speaks the sign-in's language, and so does the notice its
  // new password sends, though the browser still asks for English.
  await page.goto(mailLink(mail as SunkMail, RESET_LINK_PATH));
  const reset = new ResetPasswordPage(page, VerificationType.PasswordReset);
  await reset.expectForm(de);
  expect(await reset.choosePassword(de, strongPassword())).toMatchObject({ success: true });
  const [, changed] = await waitForMails(newAccount.email, 2);
  expect(changed?.subject).toContain('geändert');
});

test('a refused request ends on the error page with a reference to quote, selected in one click', async ({
  page,
  texts,
}) => {
  await rp.authorize(page, { redirect_uri: 'https://elsewhere.example/callback' });
  const error = new ErrorPage(page);
  await expect(error.heading).toHaveText(texts.errorTitle);
  await expect(error.message(texts)).toBeVisible();
  const reference = page.getByRole('main').locator('code');
  await expect(reference).toHaveText(/^[0-9A-HJKMNP-TV-Z]{8}$/);
  const shown = await reference.textContent();
  expect(new URL(page.url()).pathname).toBe(`/error/${shown}`);
  await expect(reference.locator('xpath=..')).toHaveText(
    fillText(texts.errorReference, { reference: shown ?? '' }),
  );

  await reference.click();
  expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(shown);

  // Then a way back and whom to ask, quoting the reference.
  await expect(error.wayBack(texts.goToStartPage)).toHaveAttribute('href', getCalls.defaultRedirect.path);
  await expect(error.help(texts).getByRole('link', { name: texts.siteEmail, exact: true })).toBeVisible();
  await expect(error.help(texts).getByRole('link', { name: texts.sitePhone, exact: true })).toBeVisible();
});
