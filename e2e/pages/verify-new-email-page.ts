import { fillText, type TextResource } from '@keycard/contract';
import type { Locator, Page } from '@playwright/test';
import { PageFrame } from './page-frame.ts';

/** SPEC §2 /verifyNewEmail/{code}: the new e-mail address is being confirmed. */
export class VerifyNewEmailPage extends PageFrame {
  readonly pageKind = 'emailVerification';
  /** The screen calls the service on load; a code the service does not know ends on this state. */
  readonly headingKey = 'errorTitle';

  constructor(page: Page, path = '/verifyNewEmail/e2e-email-code') {
    super(page, path);
  }

  /** SPEC §4: the success caption names the user by first name, under a heading that says what happened. */
  successCaption(texts: TextResource, userFirstName: string): Locator {
    return this.page
      .getByRole('main')
      .getByText(fillText(texts.newEmailVerified, { userFirstName }), { exact: true });
  }
}
