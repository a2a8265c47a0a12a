import type { TextResource } from '@keycard/contract';
import type { Locator, Page } from '@playwright/test';
import { PageFrame } from './page-frame.ts';

/** SPEC §2 /expiredLink/: the password link expired, with links to forgot password and to login. */
export class ExpiredLinkPage extends PageFrame {
  readonly pageKind = 'expiredLink';
  readonly headingKey = 'passwordLinkExpired';

  constructor(page: Page, path = '/expiredLink/') {
    super(page, path);
  }

  forgotPasswordLink(texts: TextResource): Locator {
    return this.page.getByRole('main').getByRole('link', { name: texts.forgotPasswordLabel, exact: true });
  }

  loginLink(texts: TextResource): Locator {
    return this.page.getByRole('main').getByRole('link', { name: texts.goToLoginLabel, exact: true });
  }
}
