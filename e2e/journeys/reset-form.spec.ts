import { VerificationType } from '@keycard/contract';
import { escapeRegExp } from '../pages/done-state.ts';
import { ResetPasswordPage } from '../pages/reset-password-page.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, LOCALE, test } from '../support/fixtures.ts';
import { pageWallTime } from '../support/recovery.ts';

/** The code check is answered as valid: these journeys are about the form, not the code. */
function resetPage(page: ConstructorParameters<typeof ResetPasswordPage>[0]): ResetPasswordPage {
  return new ResetPasswordPage(page, VerificationType.PasswordReset, 'e2e-form-code', {
    isValid: true,
    userName: 'Ada',
  });
}

/** The reset form, open and ready for typing. */
async function openForm(
  page: ConstructorParameters<typeof ResetPasswordPage>[0],
  texts: Parameters<ResetPasswordPage['expectForm']>[0],
): Promise<ResetPasswordPage> {
  const reset = resetPage(page);
  await reset.open();
  await reset.expectForm(texts);
  return reset;
}

test.describe('reset form explains itself as the person types (issue 16 item 5)', () => {
  for (const locale of [LOCALE.en, LOCALE.de]) {
    test.describe(locale, () => {
      test.use({ locale });

      test('the list names the rules still unmet, and Save says why it is disabled', async ({
        page,
        texts,
      }) => {
        const reset = await openForm(page, texts);
        const field = reset.newPasswordField(texts);
        const save = reset.resetButton(texts);
        const summary = page.locator('.policy__summary');
        await expect(summary).toHaveAttribute('aria-live', 'polite');

        await expect(save).toBeDisabled();
        await expect(save).toHaveAccessibleDescription(texts.resetUnavailablePolicy);
        await expect(page.getByText(texts.resetUnavailablePolicy, { exact: true })).toBeVisible();

        await field.pressSequentially('abcdefghijkl');
        await expect(summary).toHaveText(
          texts.passwordRequirementsMissing.replace(
            '{requirements}',
            [
              texts.passwordDigitRequirement,
              texts.passwordUppercaseRequirement,
              texts.passwordSpecialRequirement,
            ].join('; '),
          ),
        );
        await field.pressSequentially('A1');
        await expect(summary).toHaveText(
          texts.passwordRequirementsMissing.replace('{requirements}', texts.passwordSpecialRequirement),
        );
        await field.pressSequentially('!');
        await expect(summary).toHaveText(texts.passwordRequirementsAllMet);
        await expect(save).toHaveAccessibleDescription(texts.resetUnavailableConfirm);

        const confirm = reset.confirmPasswordField(texts);
        await confirm.fill('abcdefghijklA1?');
        await expect(save).toHaveAccessibleDescription(texts.resetUnavailableMismatch);
        // The hint appears inside a live region that was there before it, so it is announced.
        await expect(confirm).toHaveAccessibleDescription(texts.passwordsMustMatch);
        await expect(reset.mismatchHint(texts).locator('xpath=..')).toHaveAttribute('aria-live', 'polite');

        await confirm.fill('abcdefghijklA1!');
        await expect(save).toBeEnabled();
        await expect(save).toHaveAccessibleDescription('');
        await expect(page.getByText(texts.resetUnavailableMismatch, { exact: true })).toHaveCount(0);
        expect(await axeViolations(page)).toEqual([]);
      });
    });
  }

  test('Save stays where it is when the strength estimate arrives, so a click on it lands', async ({
    page,
    texts,
  }) => {
    const reset = await openForm(page, texts);
    // The page's timers held: the estimate waits for a pause in the typing, so it cannot arrive yet.
    await page.clock.pauseAt(await pageWallTime(page));
    await reset.fillPasswords(texts, 'Pw-Sx8!kq2Lm#vR4');
    await expect(reset.resetButton(texts)).toBeEnabled();
    const before = await reset.resetButton(texts).boundingBox();
    await page.clock.runFor(1_000);
    await expect(reset.strengthLevel(texts)).toBeVisible();
    const after = await reset.resetButton(texts).boundingBox();
    expect(before).not.toBeNull();
    expect(after).toEqual(before);
  });

  test('Save stays where it is when a password with advice replaces one without, and back', async ({
    page,
    texts,
  }) => {
    const reset = await openForm(page, texts);
    const level = reset.strengthLevel(texts);
    await reset.fillPasswords(texts, 'Pw-Sx8!kq2Lm#vR4');
    await expect(level).toHaveText(texts.passwordStrengthVeryStrong);
    // A password the estimator has advice for (a warning and suggestions), typed while the timers are
    // held, then the other way round: each time the estimate arriving under a pointer on Save.
    await page.clock.pauseAt(await pageWallTime(page));
    const advice = page.getByRole('main').locator('.strength__warning, .strength__suggestions li');
    for (const [password, levelAfter, advised] of [
      ['P@ssw0rd1234', texts.passwordStrengthWeak, true],
      ['Pw-Sx8!kq2Lm#vR5', texts.passwordStrengthVeryStrong, false],
    ] as const) {
      await reset.fillPasswords(texts, password);
      await expect(reset.resetButton(texts)).toBeEnabled();
      const before = await reset.resetButton(texts).boundingBox();
      await page.clock.runFor(1_000);
      await expect(level).toHaveText(levelAfter);
      if (advised) {
        // After Reset on the page, and still what the field is described by, for a screen reader.
        const said = await advice.first().textContent();
        expect(said).toBeTruthy();
        await expect(reset.newPasswordField(texts)).toHaveAccessibleDescription(
          new RegExp(escapeRegExp(said ?? '')),
        );
      } else {
        await expect(advice).toHaveCount(0);
      }
      expect(await reset.resetButton(texts).boundingBox(), `Save's place once ${password} is rated`).toEqual(
        before,
      );
    }
  });

  test('the valid and invalid icons sit inside the fields, in the fields column', async ({ page, texts }) => {
    const reset = await openForm(page, texts);
    await reset.newPasswordField(texts).fill('Abcdefgh1!xy');
    await reset.newPasswordField(texts).blur();
    await reset.confirmPasswordField(texts).fill('Abcdefgh1!xz');
    for (const [field, state] of [
      [reset.newPasswordField(texts), 'valid'],
      [reset.confirmPasswordField(texts), 'invalid'],
    ] as const) {
      const fieldBox = await field.boundingBox();
      const iconBox = await field.locator('xpath=..').locator(`.reset__state--${state}`).boundingBox();
      if (!fieldBox || !iconBox) throw new Error(`the ${state} icon or its field is not shown`);
      expect(iconBox.x).toBeGreaterThanOrEqual(fieldBox.x);
      expect(iconBox.x + iconBox.width).toBeLessThanOrEqual(fieldBox.x + fieldBox.width);
      expect(iconBox.y).toBeGreaterThanOrEqual(fieldBox.y);
      expect(iconBox.y + iconBox.height).toBeLessThanOrEqual(fieldBox.y + fieldBox.height);
    }
  });
});
