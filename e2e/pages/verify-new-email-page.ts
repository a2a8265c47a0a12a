import type { Page } from '@playwright/test';
import { PageFrame } from './page-frame.ts';

/** SPEC §2 /verifyNewEmail/{code}: the new e-mail address is being confirmed. */
export class VerifyNewEmailPage extends PageFrame {
  readonly pageKind = 'emailVerification';
  /** The screen calls the service on load; a code the service does not know ends on this state. */
  readonly headingKey = 'errorTitle';

  constructor(page: Page, path = '/verifyNewEmail/e2e-email-code') {
    super(page, path);
  }
}
