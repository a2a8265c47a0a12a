import type { Page } from '@playwright/test';
import { PageFrame } from './page-frame.ts';

/** SPEC §2 /unlock/{code}: the account is being unlocked with the code of the path. */
export class UnlockPage extends PageFrame {
  readonly pageKind = 'unlock';
  readonly headingKey = 'unlockInProgress';

  constructor(page: Page, path = '/unlock/e2e-unlock-code') {
    super(page, path);
  }
}
