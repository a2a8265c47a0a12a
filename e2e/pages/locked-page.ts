import type { TextResource } from '@keycard/contract';
import type { Locator, Page } from '@playwright/test';
import { PageFrame } from './page-frame.ts';

/** SPEC §2 /locked/: locked after too many failed attempts, with links to forgot password and login. */
export class LockedPage extends PageFrame {
  readonly pageKind = 'userLockedAfterTooManyFailedAttempts';
  readonly headingKey = 'lockedAfterTooManyFailedAttempts';

  constructor(page: Page, path = '/locked/') {
    super(page, path);
  }

  forgotPasswordLink(texts: TextResource): Locator {
    return this.page.getByRole('main').getByRole('link', { name: texts.forgotPasswordLabel, exact: true });
  }

  loginLink(texts: TextResource): Locator {
    return this.page.getByRole('main').getByRole('link', { name: texts.goToLoginLabel, exact: true });
  }
}
