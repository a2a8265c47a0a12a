import type { TextResource } from '@keycard/contract';
import type { Locator, Page } from '@playwright/test';
import { PageFrame } from './page-frame.ts';

/**
 * SPEC §2 /error/: "We're sorry!" and "Something went wrong." SPEC §3 has no page kind of its own
 * for it; the SPA shows it on the fallback landing page's background.
 */
export class ErrorPage extends PageFrame {
  readonly pageKind = 'fallbackLandingPage';
  readonly headingKey = 'errorTitle';

  constructor(page: Page, path = '/error/') {
    super(page, path);
  }

  message(texts: TextResource): Locator {
    return this.page.getByRole('main').getByText(texts.somethingWentWrong, { exact: true });
  }

  /** The way back: to sign-in, to the application, or to the start page, as a link. */
  wayBack(label: string): Locator {
    return this.page.getByRole('main').getByRole('link', { name: label, exact: true });
  }

  /** The help contact of the site file, under its heading. */
  help(texts: TextResource): Locator {
    return this.page.getByRole('main').getByRole('region', { name: texts.helpLabel, exact: true });
  }

  /** The line the page adds when the service sent the person here for an outage (?reason=unavailable). */
  unavailable(texts: TextResource): Locator {
    return this.page.getByRole('main').getByText(texts.temporarilyUnavailable, { exact: true });
  }
}
