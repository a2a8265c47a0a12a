import type { Locator, Page } from '@playwright/test';
import { PageFrame } from './page-frame.ts';

/** SPEC §2: any other path. A welcome, why the access was incorrect, and three suggestions. */
export class FallbackLandingPage extends PageFrame {
  readonly pageKind = 'fallbackLandingPage';
  readonly headingKey = 'fallbackWelcome';
  readonly suggestions: Locator;

  constructor(page: Page, path = '/no-such-page/here') {
    super(page, path);
    this.suggestions = page.getByRole('main').getByRole('listitem');
  }
}
