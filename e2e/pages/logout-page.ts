import { type CallResponse, fillText, type TextResource } from '@keycard/contract';
import type { Locator, Page } from '@playwright/test';
import { PageFrame } from './page-frame.ts';

/** SPEC §2 /logout/: signs out the session of the query's logoutId and says goodbye by name. */
export class LogoutPage extends PageFrame {
  readonly pageKind = 'userLogoff';
  readonly headingKey = 'logoff';

  constructor(
    page: Page,
    path = '/logout/',
    /**
     * A fixed answer for POST /api/Logout. A real logoutId needs a signed-in OIDC session; journeys
     * that only check the page frame answer the call themselves instead (unknown ids go to /Error).
     */
    private readonly answer?: CallResponse<'logout'>,
  ) {
    super(page, path);
  }

  override async open(path: string = this.path): Promise<void> {
    const { answer } = this;
    if (answer) {
      await this.page.route(
        (url) => url.pathname.toLowerCase() === '/api/logout',
        (route) => route.fulfill({ json: answer }),
      );
    }
    await super.open(path);
  }

  /** The goodbye caption with the user's name (SPEC §2), shown once the session ended. */
  greeting(texts: TextResource, userName: string): Locator {
    return this.page
      .getByRole('main')
      .getByText(fillText(texts.logoffGreeting, { userName }), { exact: true });
  }

  /** The caption of a sign-out that names no one: the browser was not signed in. */
  signedOutCaption(texts: TextResource): Locator {
    return this.page.getByRole('main').getByText(texts.logoffDone, { exact: true });
  }

  /** The question asked before a sign-out no valid ID token vouched for ("Sign out of Keycard?"). */
  confirmButton(texts: TextResource): Locator {
    return this.page.getByRole('main').getByRole('button', { name: texts.logoutConfirmLabel, exact: true });
  }

  declineButton(texts: TextResource): Locator {
    return this.page.getByRole('main').getByRole('button', { name: texts.logoutDeclineLabel, exact: true });
  }
}
