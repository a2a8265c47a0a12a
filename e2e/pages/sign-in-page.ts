import { type CallResponse, fillText, PRODUCT_NAME, postCalls, type TextResource } from '@keycard/contract';
import { expect, type Locator, type Page, type Response } from '@playwright/test';
import { PageFrame } from './page-frame.ts';

const LOGIN_PATH = postCalls.login.path.toLowerCase();

/**
 * The body of a /api/login response, checked against the contract. Read it only when the page did
 * not leave (a failed, expired or locked login): a full page load discards the response body.
 */
export async function loginAnswer(response: Response): Promise<CallResponse<'login'>> {
  expect(response.status(), 'status of /api/login').toBe(200);
  return postCalls.login.response.parse(await response.json());
}

/** SPEC §2 `/` with a ReturnUrl: the sign-in page; its background rotates unknownUser1–3. */
export class SignInPage extends PageFrame {
  readonly pageKind = 'unknownUser';
  readonly headingKey = 'loginWelcome';
  /** The wrong-password header's live region (SPEC §8); always present, empty until a failure. */
  readonly alert: Locator;

  constructor(page: Page, path = '/?ReturnUrl=%2F') {
    super(page, path);
    this.alert = page.getByRole('alert');
  }

  /** The welcome names the ReturnUrl's product, the product's own name by default (SPEC §3). */
  override expectedHeading(texts: TextResource, product: string = PRODUCT_NAME): string {
    return fillText(texts.loginWelcome, { product });
  }

  /** Step 1: the editable e-mail field; step 2: its read-only copy, captioned as the account. */
  emailField(texts: TextResource): Locator {
    return this.page
      .getByLabel(texts.emailLabel, { exact: true })
      .or(this.page.getByLabel(texts.accountCaption, { exact: true }));
  }

  /** Step 2: the forgot-password link beside the password field (the footer has one too). */
  forgotPasswordBesideField(texts: TextResource): Locator {
    return this.page.getByRole('main').getByRole('link', { name: texts.forgotPasswordLabel, exact: true });
  }

  /** The wrong-password header inside the alert region, once a login failed. */
  errorHeading(texts: TextResource): Locator {
    return this.alert.getByRole('heading', { name: texts.wrongPasswordOrUnknownUser, exact: true });
  }

  nextButton(texts: TextResource): Locator {
    return this.page.getByRole('button', { name: texts.nextLabel, exact: true });
  }

  /** Step 2: back to the e-mail step. */
  backButton(texts: TextResource): Locator {
    return this.page.getByRole('button', { name: texts.backLabel, exact: true });
  }

  passwordField(texts: TextResource): Locator {
    return this.page.getByLabel(texts.passwordLabel, { exact: true });
  }

  /** The show/hide toggle: one name in both states, pressed (aria-pressed) while the password shows. */
  showPasswordButton(texts: TextResource): Locator {
    return this.page.getByRole('button', { name: texts.showPassword, exact: true });
  }

  loginButton(texts: TextResource): Locator {
    return this.page.getByRole('button', { name: texts.loginLabel, exact: true });
  }

  /** Step 1 → step 2: types the e-mail and presses Next; waits for the password field. */
  async submitEmail(texts: TextResource, email: string): Promise<void> {
    await this.emailField(texts).fill(email);
    await this.nextButton(texts).click();
    await expect(this.passwordField(texts)).toBeVisible();
  }

  /**
   * Step 2: types the password and presses Login; resolves with /api/login's response, so the next
   * look at the page sees its outcome (or the navigation it started).
   */
  async submitPassword(texts: TextResource, password: string): Promise<Response> {
    await this.passwordField(texts).fill(password);
    const answered = this.page.waitForResponse(
      (response) => new URL(response.url()).pathname.toLowerCase() === LOGIN_PATH,
    );
    await this.loginButton(texts).click();
    return answered;
  }

  /** Both steps. */
  async signIn(texts: TextResource, email: string, password: string): Promise<Response> {
    await this.submitEmail(texts, email);
    return this.submitPassword(texts, password);
  }
}
