import { fillText, type TextResource } from '@keycard/contract';
import { expect, type Locator, type Page } from '@playwright/test';
import { SignInPage } from './sign-in-page.ts';

/**
 * Product name of the built-in demo relying party's client registration (server/src/demo/): the
 * sign-in page's welcome names it through the ReturnUrl's product parameter (DESIGN §1).
 */
export const DEMO_PRODUCT_NAME = 'Demo Planner';
/** The demo relying party's client id: public, PKCE. */
export const DEMO_CLIENT_ID = 'keycard-demo';

/** Where the demo relying party lives and where the post-logout redirect brings the browser back. */
export const DEMO_PATH = '/demo';
/** Starts authorization code + PKCE against Keycard's own issuer. */
export const DEMO_LOGIN_PATH = '/demo/login';

/**
 * The demo relying party (development mode, DESIGN §2 Modes): a page of the service, not of the
 * SPA, so it has no page frame. Signed out it offers sign-in; signed in it shows the ID-token
 * claims and a sign-out link through the provider's end-session endpoint.
 */
export class DemoPage {
  readonly heading: Locator;
  readonly claimsTable: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.claimsTable = page.getByRole('table');
  }

  async open(): Promise<void> {
    await this.page.goto(DEMO_PATH);
    await expect(this.heading).toBeVisible();
  }

  /**
   * Starts a sign-in at the relying party without its page: /demo/login sends the browser through
   * the provider's authorize endpoint to the SPA's sign-in page, with a live interaction behind it.
   */
  async startSignIn(): Promise<SignInPage> {
    await this.page.goto(DEMO_LOGIN_PATH);
    const url = new URL(this.page.url());
    const signIn = new SignInPage(this.page, `${url.pathname}${url.search}`);
    await expect(signIn.frame).toHaveAttribute('data-page-kind', signIn.pageKind);
    return signIn;
  }

  /** True when the browser is at /demo itself (any query the provider adds is allowed). */
  isAt(url: URL): boolean {
    return url.pathname === DEMO_PATH;
  }

  signInLink(texts: TextResource): Locator {
    return this.page.getByRole('link', { name: texts.demoSignIn, exact: true });
  }

  signOutLink(texts: TextResource): Locator {
    return this.page.getByRole('link', { name: texts.demoSignOut, exact: true });
  }

  signedOutStatus(texts: TextResource): Locator {
    return this.page.getByText(texts.demoSignedOut, { exact: true });
  }

  signedInStatus(texts: TextResource, userName: string): Locator {
    return this.page.getByText(fillText(texts.demoSignedInAs, { userName }), { exact: true });
  }

  claimsHeading(texts: TextResource): Locator {
    return this.page.getByRole('heading', { name: texts.demoClaims, exact: true });
  }

  /** The value cell of one ID-token claim, by the claim's name in its row header. */
  claim(name: string): Locator {
    return this.claimsTable
      .getByRole('row')
      .filter({ has: this.page.getByRole('rowheader', { name, exact: true }) })
      .getByRole('cell');
  }
}
