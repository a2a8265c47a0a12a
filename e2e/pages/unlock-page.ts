import { fillText, type TextResource } from '@keycard/contract';
import type { Page } from '@playwright/test';
import { PageFrame } from './page-frame.ts';

/** SPEC §2 /unlock/{code}: the account is being unlocked with the code of the path. */
export class UnlockPage extends PageFrame {
  readonly pageKind = 'unlock';
  /** The screen calls the service on load; a code the service does not know ends on this state. */
  readonly headingKey = 'errorTitle';

  constructor(page: Page, path = '/unlock/e2e-unlock-code') {
    super(page, path);
  }

  /** SPEC §4: the success header names the user. */
  successHeading(texts: TextResource, userName: string): string {
    return fillText(texts.unlockSuccessful, { userName });
  }
}
