import type { Locator } from '@playwright/test';
import { DemoPage } from '../pages/demo-page.ts';
import { ExpiredLinkPage } from '../pages/expired-link-page.ts';
import { LockedPage } from '../pages/locked-page.ts';
import { uniqueEmail } from '../support/accounts.ts';
import { axeViolations } from '../support/axe.ts';
import { holdCalls } from '../support/calls.ts';
import { expect, test } from '../support/fixtures.ts';

/** WCAG 2.5.5: the smallest target, in CSS pixels, of a recovery action. */
const MIN_TARGET_PX = 44;

function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === document.activeElement);
}

async function expectTargetSize(target: Locator, what: string): Promise<void> {
  const box = await target.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box?.width ?? 0, `${what}: width`).toBeGreaterThanOrEqual(MIN_TARGET_PX);
  expect(box?.height ?? 0, `${what}: height`).toBeGreaterThanOrEqual(MIN_TARGET_PX);
}

test.describe('sign-in guidance (issue 16, items 4, 6, 7 and 8)', () => {
  test('focus follows the steps and the error; the account shows on step 2; an old error goes while the next attempt runs', async ({
    page,
    texts,
  }) => {
    const signIn = await new DemoPage(page).startSignIn();
    await expect(signIn.emailField(texts)).toBeEditable();
    expect(await isFocused(signIn.emailField(texts)), 'e-mail focused on load').toBe(true);

    // An address nobody has: its failure counter is this test's alone (DESIGN §2).
    const email = uniqueEmail('guidance');
    await signIn.submitEmail(texts, email);
    await expect
      .poll(() => isFocused(signIn.passwordField(texts)), { message: 'password focused' })
      .toBe(true);

    // Step 2 names the account and keeps a visible way back to change it.
    await expect(page.getByText(texts.accountCaption, { exact: true })).toBeVisible();
    await expect(signIn.emailField(texts)).toHaveValue(email);
    await expect(signIn.backButton(texts)).toHaveText(texts.backLabel);
    await expectTargetSize(signIn.backButton(texts), 'back button');

    // Forgot password beside the field as well as in the footer, both large enough to hit.
    await expect(signIn.forgotPasswordBesideField(texts)).toHaveAttribute('href', /^\/forgotPassword\?/);
    await expectTargetSize(signIn.forgotPasswordBesideField(texts), 'forgot password beside the field');
    const footerLink = page.getByRole('contentinfo').getByRole('link', { name: texts.forgotPasswordLabel });
    await expectTargetSize(footerLink, 'forgot password in the footer');

    await signIn.submitPassword(texts, 'Not-the-password-1!');
    const error = signIn.errorHeading(texts);
    await expect(error).toBeVisible();
    await expect.poll(() => isFocused(error), { message: 'error focused' }).toBe(true);
    const errorId = await error.getAttribute('id');
    await expect(signIn.passwordField(texts)).toHaveAttribute('aria-describedby', errorId ?? '');
    await expect(signIn.passwordField(texts)).toHaveAttribute('aria-invalid', 'true');
    expect(await axeViolations(page), 'wrong password').toEqual([]);

    // The next attempt: while it is in flight the last one's message is gone.
    const logins = await holdCalls(page, 'login');
    await signIn.passwordField(texts).fill('Not-the-password-2!');
    await signIn.loginButton(texts).click();
    await expect(signIn.loginButton(texts)).toBeDisabled();
    // Pressed, Login keeps focus while the attempt runs: the keyboard is not dropped to the page.
    await expect(signIn.loginButton(texts)).toBeFocused();
    await expect(error).toHaveCount(0);
    await expect(signIn.alert).toHaveText('');
    await expect(signIn.passwordField(texts)).not.toHaveAttribute('aria-describedby', /./);
    await expect(signIn.passwordField(texts)).toHaveAttribute('aria-invalid', 'false');
    logins.release();

    await expect(error).toBeVisible();
    await expect.poll(() => isFocused(error), { message: 'new error focused' }).toBe(true);
    await expect(signIn.passwordField(texts)).toHaveAttribute('aria-describedby', errorId ?? '');
  });

  test('the busy ring turns, and stands still for people who ask for reduced motion', async ({
    page,
    texts,
  }) => {
    // The configuration asks every journey for reduced motion; this one starts without.
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    const signIn = await new DemoPage(page).startSignIn();
    await signIn.submitEmail(texts, uniqueEmail('busy ring'));
    const logins = await holdCalls(page, 'login');
    await signIn.passwordField(texts).fill('Not-the-password-1!');
    await signIn.loginButton(texts).click();
    await expect(signIn.loginButton(texts)).toBeDisabled();
    await expect(page.getByRole('status')).toHaveText(texts.signingIn);
    const ring = () =>
      signIn.loginButton(texts).evaluate((button) => getComputedStyle(button, '::after').animationName);
    expect(await ring()).toBe('sign-in-busy');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await ring()).toBe('none');
    logins.release();
    await expect(signIn.errorHeading(texts)).toBeVisible();
  });

  test('the recovery links of the locked and expired-link pages are at least 44 × 44 px', async ({
    page,
    texts,
  }) => {
    const locked = new LockedPage(page, '/locked/?ReturnUrl=%2F');
    await locked.open();
    await expectTargetSize(locked.forgotPasswordLink(texts), 'locked: forgot password');
    await expectTargetSize(locked.loginLink(texts), 'locked: go to login');

    const expired = new ExpiredLinkPage(page, '/expiredLink/?RedirectUrl=');
    await expired.open();
    await expectTargetSize(expired.forgotPasswordLink(texts), 'expired link: forgot password');
    await expectTargetSize(expired.loginLink(texts), 'expired link: go to login');
  });
});
