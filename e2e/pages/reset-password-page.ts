import { type CallResponse, type TextKey, type TextResource, VerificationType } from '@keycard/contract';
import { expect, type Locator, type Page } from '@playwright/test';
import { callAnswer, nextCall } from '../support/calls.ts';
import { type HeadingKey, PageFrame } from './page-frame.ts';

/** The h1 differs by verification type: expired password (2), invitation (6), otherwise a reset. */
function headingFor(verificationType: number): HeadingKey {
  if (verificationType === VerificationType.PasswordExpired) return 'expiredPasswordReset';
  if (verificationType === VerificationType.VerifyUser) return 'setFirstPassword';
  return 'resetPassword';
}

/** SPEC §2 /resetPassword/{verificationType}/{code}: the new-password form. */
export class ResetPasswordPage extends PageFrame {
  readonly pageKind = 'resetPassword';
  readonly headingKey: HeadingKey;
  /** SPEC §4: the caption after a success differs for expired-password resets. */
  readonly successKey: TextKey;
  /** The form's live region for the policy and history violations (SPEC §8). */
  readonly alert: Locator;
  /** The new-password form; aria-busy while a call is on its way. */
  readonly form: Locator;

  constructor(
    page: Page,
    verificationType: number = VerificationType.PasswordReset,
    code = 'e2e-reset-code',
    /**
     * A fixed answer for POST /api/CheckVerification. A made-up code is invalid and sends the browser
     * to the expired-link page (SPEC §4); journeys that only check the page frame answer it as valid.
     */
    private readonly checkAnswer?: CallResponse<'checkVerification'>,
  ) {
    super(page, `/resetPassword/${verificationType}/${code}`);
    this.headingKey = headingFor(verificationType);
    this.successKey =
      verificationType === VerificationType.PasswordExpired
        ? 'expiredPasswordResetSuccess'
        : 'resetPasswordSuccess';
    this.alert = page.getByRole('main').getByRole('alert');
    this.form = page.getByRole('main').locator('form');
  }

  override async open(path: string = this.path): Promise<void> {
    const { checkAnswer } = this;
    if (checkAnswer) {
      await this.page.route(
        (url) => url.pathname.toLowerCase() === '/api/checkverification',
        (route) => route.fulfill({ json: checkAnswer }),
      );
    }
    await super.open(path);
  }

  newPasswordField(texts: TextResource): Locator {
    return this.page.getByLabel(texts.newPasswordLabel, { exact: true });
  }

  confirmPasswordField(texts: TextResource): Locator {
    return this.page.getByLabel(texts.confirmPasswordLabel, { exact: true });
  }

  resetButton(texts: TextResource): Locator {
    return this.page.getByRole('button', { name: texts.resetLabel, exact: true });
  }

  /** SPEC §5: the policy list, named by its heading. */
  policyList(texts: TextResource): Locator {
    return this.page.getByRole('list', { name: texts.passwordPolicyHeading, exact: true });
  }

  /** The level of the strength estimate ("very weak" … "very strong"), once the estimator has loaded. */
  strengthLevel(texts: TextResource): Locator {
    return this.page.getByRole('main').getByText(texts.passwordStrengthLabel).locator('strong');
  }

  /** Shown under the confirm field while it differs from the new password (once validating). */
  mismatchHint(texts: TextResource): Locator {
    return this.page.getByRole('main').getByText(texts.passwordsMustMatch, { exact: true });
  }

  successCaption(texts: TextResource): Locator {
    return this.page.getByRole('main').getByText(texts[this.successKey], { exact: true });
  }

  /** The form is there once the code check on load found the code valid. */
  async expectForm(texts: TextResource): Promise<void> {
    await expect(this.frame).toHaveAttribute('data-page-kind', this.pageKind);
    await expect(this.heading).toHaveText(texts[this.headingKey]);
    await expect(this.newPasswordField(texts)).toBeEditable();
  }

  /** Types the new password into both fields. */
  async fillPasswords(texts: TextResource, password: string, confirmation: string = password): Promise<void> {
    await this.newPasswordField(texts).fill(password);
    await this.confirmPasswordField(texts).fill(confirmation);
  }

  /**
   * Types the new password twice and presses Reset; resolves with /api/ResetPassword's answer (the
   * page stays for the redirect delay after a success, so the body can be read).
   */
  async choosePassword(texts: TextResource, password: string): Promise<CallResponse<'resetPassword'>> {
    await this.fillPasswords(texts, password);
    await expect(this.resetButton(texts)).toBeEnabled();
    // The form takes one call at a time: a press while the last answer is still being handled (the
    // network has it, the page not yet) sends nothing.
    await expect(this.form, 'the form is done with the last answer').toHaveAttribute('aria-busy', 'false');
    const answered = nextCall(this.page, 'resetPassword');
    await this.resetButton(texts).click();
    const answer = await callAnswer('resetPassword', await answered);
    // A violation keeps the form; any other refusal may leave for the expired-link page (SPEC §8).
    if (answer.policyViolation || answer.historyViolation) {
      await expect(this.form).toHaveAttribute('aria-busy', 'false');
    }
    return answer;
  }
}
