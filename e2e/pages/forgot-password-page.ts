import type { Page } from '@playwright/test';
import { PageFrame } from './page-frame.ts';

/** SPEC §2 /forgotPassword/: the e-mail entry page. */
export class ForgotPasswordPage extends PageFrame {
  readonly pageKind = 'forgotPassword';
  readonly headingKey = 'forgotPassword';

  constructor(page: Page, path = '/forgotPassword/') {
    super(page, path);
  }
}
