import { randomBytes } from 'node:crypto';
import { LANGUAGES } from '@keycard/contract';
import { DemoPage } from '../pages/demo-page.ts';
import { DoneState } from '../pages/done-state.ts';
import { VerifyNewEmailPage } from '../pages/verify-new-email-page.ts';
import { type Account, freshAccount, uniqueEmail } from '../support/accounts.ts';
import { addUser, adminApi, runAdmin } from '../support/admin.ts';
import { axeViolations } from '../support/axe.ts';
import { callAnswer, nextCall } from '../support/calls.ts';
import { expect, LOCALE, test } from '../support/fixtures.ts';
import { mailLanguage, mailLink, textLinks, waitForMail, waitForMails } from '../support/mailbox.ts';
import {
  defaultRedirectUrl,
  followDelayedRedirect,
  MAIL_DEFAULT_LANGUAGE,
  seenAt,
  withClockRunning,
} from '../support/recovery.ts';
import { expectPasswordRefused, expectSignedIn } from '../support/sign-in-steps.ts';

/**
 * Issues 4 and 5: an administrator changes an account's address (DESIGN §1 Provisioning), by the CLI
 * (English run) or the admin HTTP API (German run); the new address confirms by the mailed link, the
 * old one is told; then only the new address signs in.
 */

/** The first name the verify page greets with: the display name's first word (DESIGN §2). */
const FIRST_NAME = 'Frieda';

test.describe('changing the e-mail address', () => {
  for (const language of LANGUAGES) {
    test.describe(`${language} (${LOCALE[language]})`, () => {
      test.use({ locale: LOCALE[language], theme: language === 'en' ? 'dark' : 'light' });

      const via = language === 'en' ? 'user:change-email' : 'POST /admin/api/users/{id}/change-email';
      test(`${via} mails a confirmation link to the new address and a notice to the old; the link greets by first name and the new address signs in`, async ({
        page,
        baseURL,
        texts,
      }, testInfo) => {
        const account: Account = {
          ...freshAccount(testInfo.title),
          name: `${FIRST_NAME} Neumann${randomBytes(3).toString('hex')}`,
        };
        await addUser(account);
        const newEmail = uniqueEmail(`${testInfo.title} new`);
        const requested =
          language === 'en'
            ? await runAdmin(['user:change-email', '--email', account.email, '--new-email', newEmail])
            : await (async () => {
                const api = await adminApi(baseURL ?? '');
                const user = (await api('GET', `/users?email=${encodeURIComponent(account.email)}`)) as {
                  id: string;
                };
                return api('POST', `/users/${user.id}/change-email`, { newEmail });
              })();
        expect(requested).toMatchObject({ account: { email: account.email }, newEmail });

        // Admin commands have no request: both messages are in the default language.
        const confirmation = await waitForMail(newEmail);
        expect(mailLanguage(confirmation)).toBe(MAIL_DEFAULT_LANGUAGE);
        expect(confirmation.text).toContain(account.name);
        expect(confirmation.text).toContain(newEmail);
        const link = mailLink(confirmation, '/verifyNewEmail/');
        const notice = await waitForMail(account.email);
        expect(mailLanguage(notice)).toBe(MAIL_DEFAULT_LANGUAGE);
        expect(notice.text).toContain(newEmail);
        expect(textLinks(notice).filter((href) => href.startsWith(baseURL ?? ''))).toEqual([]);

        const verified = nextCall(page, 'verifyNewEmail');
        await page.goto(link);
        const answer = await callAnswer('verifyNewEmail', await verified);
        expect(answer).toEqual({
          success: true,
          userFirstName: FIRST_NAME,
          redirectUrl: defaultRedirectUrl(baseURL ?? ''),
        });
        const verify = new VerifyNewEmailPage(page);
        const done = new DoneState(page);
        const shownAt = await seenAt(done.countdown);
        await expect(verify.frame).toHaveAttribute('data-page-kind', verify.pageKind);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await done.expectShown(texts, texts.emailConfirmedTitle, 13);
        await expect(verify.successCaption(texts, FIRST_NAME)).toBeVisible();
        expect(await withClockRunning(page, () => axeViolations(page)), 'verify-new-email success').toEqual(
          [],
        );

        await followDelayedRedirect(
          page,
          shownAt,
          () => expect(verify.successCaption(texts, FIRST_NAME)).toBeVisible(),
          (url) => url.href === defaultRedirectUrl(baseURL ?? ''),
        );
        await expect(new DemoPage(page).signInLink(texts)).toBeVisible();

        // DESIGN §2: the change itself is told to the old address too, in the confirming request's language.
        const [, changed] = await waitForMails(account.email, 2);
        expect(changed && mailLanguage(changed)).toBe(language);
        expect(changed?.text).toContain(newEmail);

        await expectPasswordRefused(page, texts, account.email, account.password);
        await expectSignedIn(page, texts, { email: newEmail, name: account.name }, account.password);
      });
    });
  }
});
