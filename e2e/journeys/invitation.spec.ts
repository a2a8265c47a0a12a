import { type TextResource, VerificationType } from '@keycard/contract';
import type { Page } from '@playwright/test';
import { DemoPage } from '../pages/demo-page.ts';
import { ExpiredLinkPage } from '../pages/expired-link-page.ts';
import { ResetPasswordPage } from '../pages/reset-password-page.ts';
import { type Account, freshAccount } from '../support/accounts.ts';
import { runAdmin } from '../support/admin.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, LOCALE, test } from '../support/fixtures.ts';
import { mailLanguage, mailLink, type SunkMail, waitForMail, waitForMails } from '../support/mailbox.ts';
import {
  defaultRedirectUrl,
  followDelayedRedirect,
  MAIL_DEFAULT_LANGUAGE,
  seenAt,
} from '../support/recovery.ts';
import { expectPasswordRefused, expectSignedIn } from '../support/sign-in-steps.ts';

/**
 * Issue 4: an account provisioned without a password gets an invitation (DESIGN §1 Provisioning)
 * whose link, /resetPassword/6/<code>, sets the first password; then the account signs in.
 */

const INVITATION_PATH = `/resetPassword/${VerificationType.VerifyUser}/`;

/** The invitation checks of every message: the default language (an admin command), by name, one link. */
function invitationLink(mail: SunkMail, account: Account): string {
  expect(mailLanguage(mail)).toBe(MAIL_DEFAULT_LANGUAGE);
  expect(mail.text).toContain(account.name);
  return mailLink(mail, INVITATION_PATH);
}

/** Opens the invitation link, sets the first password and follows the redirect to the default. */
async function setFirstPassword(
  page: Page,
  texts: TextResource,
  baseURL: string,
  link: string,
  password: string,
): Promise<void> {
  await page.goto(link);
  const reset = new ResetPasswordPage(page, VerificationType.VerifyUser);
  await reset.expectForm(texts);
  await expect(reset.heading).toHaveText(texts.setFirstPassword);
  expect(await axeViolations(page), 'first-password form').toEqual([]);
  const answer = await reset.choosePassword(texts, password);
  expect(answer).toEqual({
    success: true,
    redirectUrl: defaultRedirectUrl(baseURL),
    policyViolation: false,
    historyViolation: false,
  });
  const shownAt = await seenAt(reset.successCaption(texts));
  await followDelayedRedirect(
    page,
    shownAt,
    () => expect(reset.successCaption(texts)).toBeVisible(),
    (url) => url.href === defaultRedirectUrl(baseURL),
  );
  await expect(new DemoPage(page).signInLink(texts)).toBeVisible();
}

test.describe('an invitation sets the first password', () => {
  test.describe('en (en-US)', () => {
    test.use({ locale: LOCALE.en });

    test('user:add without a password mails the invitation; its link sets the first password and the account signs in', async ({
      page,
      baseURL,
      texts,
    }, testInfo) => {
      const account = freshAccount(testInfo.title);
      const added = await runAdmin(['user:add', '--email', account.email, '--name', account.name]);
      expect(added).toMatchObject({
        account: { email: account.email, displayName: account.name },
        hasPassword: false,
        invitation: 'queued',
      });
      // Without a password nothing signs in yet, not even the one the person will choose.
      await expectPasswordRefused(page, texts, account.email, account.password);

      const link = invitationLink(await waitForMail(account.email), account);
      await setFirstPassword(page, texts, baseURL ?? '', link, account.password);

      // The notice of the change follows the request that set the password.
      const [, changed] = await waitForMails(account.email, 2);
      expect(changed && mailLanguage(changed)).toBe('en');
      await expectSignedIn(page, texts, account, account.password);
    });
  });

  test.describe('de (de-DE)', () => {
    test.use({ locale: LOCALE.de, theme: 'light' });

    test('user:invite sends a new invitation: the older link shows the expired-link page, the newer one sets the first password', async ({
      page,
      baseURL,
      texts,
    }, testInfo) => {
      const account = freshAccount(testInfo.title);
      await runAdmin(['user:add', '--email', account.email, '--name', account.name]);
      const first = invitationLink(await waitForMail(account.email), account);
      const invited = await runAdmin(['user:invite', '--email', account.email]);
      expect(invited).toMatchObject({ account: { email: account.email }, validHours: expect.any(Number) });
      const [, again] = await waitForMails(account.email, 2);
      if (!again) throw new Error('no second invitation');
      const second = invitationLink(again, account);
      expect(second).not.toBe(first);

      // DESIGN §2 Codes: the newer code supersedes the older one.
      await page.goto(first);
      const expired = new ExpiredLinkPage(page);
      await expect(page).toHaveURL((url) => url.pathname === '/ExpiredLink');
      await expect(expired.frame).toHaveAttribute('data-page-kind', expired.pageKind);
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      await expect(expired.heading).toHaveText(texts.passwordLinkExpired);

      await setFirstPassword(page, texts, baseURL ?? '', second, account.password);
      const [, , changed] = await waitForMails(account.email, 3);
      expect(changed && mailLanguage(changed)).toBe('de');
      await expectSignedIn(page, texts, account, account.password);
    });
  });
});
