import { type CallResponse, VerificationType } from '@keycard/contract';
import type { Page } from '@playwright/test';
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
}
