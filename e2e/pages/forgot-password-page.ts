import type { TextResource } from '@keycard/contract';
import { expect, type Locator, type Page } from '@playwright/test';
import { callAnswer, nextCall } from '../support/calls.ts';
import { PageFrame } from './page-frame.ts';

/** SPEC §2 /forgotPassword/: the e-mail entry page, then the thank-you state (SPEC §4). */
export class ForgotPasswordPage extends PageFrame {
  readonly pageKind = 'forgotPassword';
  readonly headingKey = 'forgotPassword';

  constructor(page: Page, path = '/forgotPassword/') {
    super(page, path);
  }

  emailField(texts: TextResource): Locator {
    return this.page.getByLabel(texts.emailLabel, { exact: true });
  }

  sendButton(texts: TextResource): Locator {
    return this.page.getByRole('button', { name: texts.sendLabel, exact: true });
  }

  /** Back to sign-in (or the RedirectUrl), in both states. */
  rememberedPasswordLink(texts: TextResource): Locator {
    return this.page
      .getByRole('main')
      .getByRole('link', { name: texts.rememberedPasswordLabel, exact: true });
  }

  /** The thank-you state's message. */
  checkYourEmail(texts: TextResource): Locator {
    return this.page.getByRole('main').getByText(texts.checkYourEmail, { exact: true });
  }

  /**
   * Types the address and presses Send; resolves once the thank-you shows and the service answered
   * /api/forgotpassword (whose answer the page does not wait for, SPEC §4), so the mail is queued.
   */
  async requestReset(texts: TextResource, email: string): Promise<void> {
    await this.emailField(texts).fill(email);
    const answered = nextCall(this.page, 'forgotPassword');
    await this.sendButton(texts).click();
    await expect(this.heading).toHaveText(texts.thankYou);
    // The answer is the same for every address (DESIGN §2); only that it came matters here.
    await callAnswer('forgotPassword', await answered);
  }
}
