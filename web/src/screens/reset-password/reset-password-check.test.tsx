import '../../test-support/dom.ts';
import { VerificationType } from '@keycard/contract';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  confirmField,
  currentLocation,
  FAILED_CALLS,
  fillBoth,
  INVALID,
  json,
  newPasswordField,
  refusal,
  renderReset,
  resetButton,
  stubService,
  VALID,
} from './reset-test-kit.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;

describe('ResetPasswordScreen code check on load (SPEC §4)', () => {
  it('checks the code and its type once, showing only the heading and a loading status meanwhile', async () => {
    let answer: (response: Response) => void = () => undefined;
    const service = stubService({
      '/api/CheckVerification': () => new Promise((resolve) => (answer = resolve)),
    });
    renderReset(VerificationType.PasswordExpired, '?ReturnUrl=%2Fresume');
    await waitFor(() =>
      expect(service.bodiesOf('/api/CheckVerification')).toEqual([
        { verificationCode: 'c0de-1', verificationType: 2 },
      ]),
    );
    expect(screen.getByRole('status').textContent).toBe('loading');
    expect(screen.queryByLabelText('newPasswordLabel')).toBeNull();

    answer(json(VALID));
    expect(await newPasswordField()).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
    expect(service.bodiesOf('/api/CheckVerification')).toHaveLength(1);
  });

  it('goes to /ExpiredLink with the encoded RedirectUrl when the code is invalid', async () => {
    stubService({ '/api/CheckVerification': () => json({ isValid: false, userName: null }) });
    renderReset(VerificationType.PasswordReset, '?RedirectUrl=https%3A%2F%2Fplanner.example%2Fhome%3Fa%3D1');
    await waitFor(() =>
      expect(currentLocation()).toBe('/ExpiredLink?RedirectUrl=https%3A%2F%2Fplanner.example%2Fhome%3Fa%3D1'),
    );
  });

  it('goes to /ExpiredLink with an empty RedirectUrl when the code is invalid and there is none', async () => {
    stubService({ '/api/CheckVerification': () => json(INVALID) });
    renderReset(VerificationType.PasswordExpired, '?ReturnUrl=%2Fresume');
    await waitFor(() => expect(currentLocation()).toBe('/ExpiredLink?RedirectUrl='));
  });

  it.each(FAILED_CALLS)(
    'after %s stays at the link, says what went wrong and offers to check again',
    async (_case, answer, text) => {
      stubService({ '/api/CheckVerification': answer });
      renderReset(VerificationType.PasswordReset, '?RedirectUrl=https%3A%2F%2Fplanner.example%2Fhome');
      const retry = await screen.findByRole('button', { name: 'tryAgainLabel' });
      expect(screen.getByRole('alert').textContent).toBe(`errorTitle${text}`);
      expect(heading()).toBe('resetPassword');
      expect(currentLocation()).toBe(
        '/resetPassword/1/c0de-1?RedirectUrl=https%3A%2F%2Fplanner.example%2Fhome',
      );
      expect(retry.tagName).toBe('BUTTON');
      expect(screen.queryByLabelText('newPasswordLabel')).toBeNull();
      expect(screen.queryByRole('status')).toBeNull();
    },
  );

  it('checks again on try again: loading meanwhile, then the form for a valid code', async () => {
    const answers: (() => Response | Promise<Response>)[] = [
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => json(VALID),
    ];
    const service = stubService({ '/api/CheckVerification': () => answers.shift()?.() ?? json(INVALID) });
    const { user } = renderReset();
    await user.click(await screen.findByRole('button', { name: 'tryAgainLabel' }));
    expect(await newPasswordField()).toBeTruthy();
    expect(service.bodiesOf('/api/CheckVerification')).toEqual([
      { verificationCode: 'c0de-1', verificationType: 1 },
      { verificationCode: 'c0de-1', verificationType: 1 },
    ]);
    expect(screen.queryByRole('button', { name: 'tryAgainLabel' })).toBeNull();
    expect(currentLocation()).toBe('/resetPassword/1/c0de-1');
  });

  it('shows the loading status while checking again and the failure again when it fails again', async () => {
    let answer: (response: Response) => void = () => undefined;
    const answers: (() => Response | Promise<Response>)[] = [
      () => refusal('internal_error', 500),
      () => new Promise((resolve) => (answer = resolve)),
    ];
    const service = stubService({ '/api/CheckVerification': () => answers.shift()?.() ?? json(INVALID) });
    const { user } = renderReset();
    await user.click(await screen.findByRole('button', { name: 'tryAgainLabel' }));
    await waitFor(() => expect(service.bodiesOf('/api/CheckVerification')).toHaveLength(2));
    expect(screen.getByRole('status').textContent).toBe('loading');
    expect(screen.getByRole('alert').textContent).toBe('');
    // The button went while the check runs: the heading holds focus, not the page's body.
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
    answer(refusal('csrf_rejected', 403));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('errorTitlesomethingWentWrong'));
    expect(screen.getByRole('button', { name: 'tryAgainLabel' })).toBeTruthy();
  });

  it('keeps one heading, and its focus, from the pending check to the form', async () => {
    let answer: (response: Response) => void = () => undefined;
    const service = stubService({
      '/api/CheckVerification': () => new Promise((resolve) => (answer = resolve)),
    });
    renderReset(VerificationType.PasswordExpired, '?ReturnUrl=%2Fresume');
    await waitFor(() => expect(service.bodiesOf('/api/CheckVerification')).toHaveLength(1));
    const pending = screen.getByRole('heading', { level: 1 });
    // As a move inside the SPA leaves it (page-arrival.tsx), e.g. from sign-in with an expired password.
    pending.focus();
    answer(json(VALID));
    expect(await newPasswordField()).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 })).toBe(pending);
    expect(document.activeElement).toBe(pending);
  });

  it('goes to /ExpiredLink when checking again answers that the code is invalid', async () => {
    const answers: (() => Response)[] = [() => refusal('internal_error', 500), () => json(INVALID)];
    stubService({ '/api/CheckVerification': () => answers.shift()?.() ?? json(INVALID) });
    const { user } = renderReset(
      VerificationType.VerifyUser,
      '?RedirectUrl=https%3A%2F%2Fplanner.example%2F',
    );
    await user.click(await screen.findByRole('button', { name: 'tryAgainLabel' }));
    await waitFor(() =>
      expect(currentLocation()).toBe('/ExpiredLink?RedirectUrl=https%3A%2F%2Fplanner.example%2F'),
    );
  });

  it.each([
    [VerificationType.PasswordReset, 'resetPassword', 'resetPasswordIntro'],
    [VerificationType.PasswordExpired, 'expiredPasswordReset', 'expiredPasswordResetIntro'],
    [VerificationType.VerifyUser, 'setFirstPassword', 'resetPasswordIntro'],
  ] as const)('type %i shows heading %s and intro %s', async (type, title, intro) => {
    stubService({ '/api/CheckVerification': () => json(VALID) });
    const { container } = renderReset(type);
    await newPasswordField();
    expect(heading()).toBe(title);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByText(intro)).toBeTruthy();
    expect(container.querySelector('[data-page-kind]')?.getAttribute('data-page-kind')).toBe('resetPassword');
  });
});

describe('ResetPasswordScreen form (SPEC §2)', () => {
  it('has new-password and confirm fields for password managers, each with a show/hide toggle', async () => {
    stubService({ '/api/CheckVerification': () => json(VALID) });
    renderReset();
    const fields = [await newPasswordField(), confirmField()];
    expect(fields.map((field) => [field.type, field.autocomplete, field.placeholder])).toEqual([
      ['password', 'new-password', 'newPasswordPlaceholder'],
      ['password', 'new-password', 'confirmPasswordPlaceholder'],
    ]);
    expect(
      screen.getAllByRole('button', { name: 'showPassword' }).map((b) => b.getAttribute('aria-controls')),
    ).toEqual(fields.map((field) => field.id));
    const username = document.querySelector<HTMLInputElement>('input[autocomplete="username"]');
    expect([username?.value, username?.hidden]).toEqual(['ada@example.test', true]);
  });

  it('numbers the controls in visual order: new password, toggle, confirm, toggle, Reset', async () => {
    stubService({ '/api/CheckVerification': () => json(VALID) });
    const { user } = renderReset();
    await fillBoth(user);
    (document.activeElement as HTMLElement | null)?.blur();
    const visited: Element[] = [];
    for (let press = 0; press < 5; press += 1) {
      await user.tab();
      if (document.activeElement) visited.push(document.activeElement);
    }
    const [newToggle, confirmToggle] = screen.getAllByRole('button', { name: 'showPassword' });
    expect(visited).toEqual([
      await newPasswordField(),
      newToggle,
      confirmField(),
      confirmToggle,
      resetButton(),
    ]);
  });
});
