import '../../test-support/dom.ts';
import { REDIRECT_DELAY_MS, VerificationType } from '@keycard/contract';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteView } from '../../app/route-view.tsx';
import { browserHistory, NavigationProvider } from '../../routing/navigation.tsx';
import { settled } from '../../test-support/settled.ts';
import { TEST_TEXTS } from '../../test-support/texts.tsx';
import { TextContext } from '../../text/text-context.ts';
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
  resetAnswer,
  resetButton,
  STRONG,
  stubLocationAssign,
  stubService,
  VALID,
} from './reset-test-kit.tsx';

const QUERY_RETURN = '?ReturnUrl=%2Foidc%2Fauth%2Fuid-1%3Fproduct%3DPlanner';
const QUERY_REDIRECT = '?RedirectUrl=https%3A%2F%2Fplanner.example%2Fhome';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

type Answer = () => Response | Promise<Response>;

/** Opens a valid reset link, fills both fields and presses Reset; the service answers `reset`. */
async function submitWith(
  reset: Answer,
  type: VerificationType = VerificationType.PasswordReset,
  search = '',
) {
  const service = stubService({ '/api/CheckVerification': () => json(VALID), '/api/ResetPassword': reset });
  const assign = stubLocationAssign();
  const view = renderReset(type, search);
  await fillBoth(view.user);
  await view.user.click(resetButton());
  return { ...view, service, assign };
}

const alertText = () => screen.getByRole('alert').textContent;

/** Waits until no reset is in flight. */
const idle = () =>
  waitFor(() => expect(document.querySelector('form')?.getAttribute('aria-busy')).toBe('false'));

describe('ResetPasswordScreen submit (SPEC §7)', () => {
  it('sends code, type, new password and, for a reset, the RedirectUrl', async () => {
    const { service } = await submitWith(
      () => json(resetAnswer({})),
      VerificationType.PasswordReset,
      QUERY_REDIRECT,
    );
    await waitFor(() => expect(service.bodiesOf('/api/ResetPassword')).toHaveLength(1));
    expect(service.bodiesOf('/api/ResetPassword')).toEqual([
      {
        verificationCode: 'c0de-1',
        verificationType: 1,
        newPassword: STRONG,
        redirectUrl: 'https://planner.example/home',
      },
    ]);
  });

  it('sends the full ReturnUrl as redirectUrl for an expired password', async () => {
    const { service } = await submitWith(
      () => json(resetAnswer({})),
      VerificationType.PasswordExpired,
      QUERY_RETURN,
    );
    await waitFor(() => expect(service.bodiesOf('/api/ResetPassword')).toHaveLength(1));
    expect(service.bodiesOf('/api/ResetPassword')[0]).toMatchObject({
      verificationType: 2,
      redirectUrl: '/oidc/auth/uid-1?product=Planner',
    });
  });

  it('sends the RedirectUrl, not the ReturnUrl, for a reset (empty without one)', async () => {
    const { service } = await submitWith(
      () => json(resetAnswer({})),
      VerificationType.PasswordReset,
      QUERY_RETURN,
    );
    await waitFor(() => expect(service.bodiesOf('/api/ResetPassword')).toHaveLength(1));
    expect(service.bodiesOf('/api/ResetPassword')[0]).toMatchObject({ redirectUrl: '' });
  });

  it('blocks duplicate submits while a reset is in flight', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { service, user } = await submitWith(() => new Promise((resolve) => (answer = resolve)));
    await user.click(resetButton());
    await user.type(confirmField(), '{Enter}');
    expect(service.bodiesOf('/api/ResetPassword')).toHaveLength(1);
    answer(json(resetAnswer({ policyViolation: true })));
    await waitFor(() => expect(alertText()).toBe('passwordPolicyViolation'));
    await user.click(resetButton());
    await waitFor(() => expect(service.bodiesOf('/api/ResetPassword')).toHaveLength(2));
  });
});

describe('ResetPasswordScreen success (SPEC §4/§5)', () => {
  it.each([
    [VerificationType.PasswordReset, 'resetPasswordSuccess'],
    [VerificationType.VerifyUser, 'resetPasswordSuccess'],
    [VerificationType.PasswordExpired, 'expiredPasswordResetSuccess'],
  ] as const)('type %i hides the form and shows %s', async (type, caption) => {
    await submitWith(
      () => json(resetAnswer({ success: true, redirectUrl: 'https://planner.example/' })),
      type,
    );
    expect(await screen.findByText(caption)).toBeTruthy();
    expect(screen.queryByLabelText('newPasswordLabel')).toBeNull();
    expect(screen.queryByRole('button', { name: 'resetLabel' })).toBeNull();
    // The heading says what happened and takes the focus the form had.
    const heading = screen.getByRole('heading', { level: 1 });
    expect(heading.textContent).toBe('passwordChangedTitle');
    expect(document.activeElement).toBe(heading);
    expect(screen.getByRole('button', { name: 'continueNow' })).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toBe('redirectCountdown 13');
  });

  it('goes to the returned http(s) URL after exactly 12500 ms', async () => {
    stubService({
      '/api/CheckVerification': () => json(VALID),
      '/api/ResetPassword': () =>
        json(resetAnswer({ success: true, redirectUrl: 'https://planner.example/x' })),
    });
    const assign = stubLocationAssign();
    const { user } = renderReset();
    await fillBoth(user);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await act(() => resetButton().click());
    await settled(() => expect(screen.getByText('resetPasswordSuccess')).toBeTruthy());

    await act(() => {
      vi.advanceTimersByTime(REDIRECT_DELAY_MS - 1);
    });
    expect(assign).not.toHaveBeenCalled();
    await act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(assign).toHaveBeenCalledExactlyOnceWith('https://planner.example/x');
    expect(REDIRECT_DELAY_MS).toBe(12_500);
  });

  it.each([['javascript:alert(1)'], ['/local/path'], [null]])(
    'goes to /error after the delay when the returned URL is %s',
    async (redirectUrl) => {
      stubService({
        '/api/CheckVerification': () => json(VALID),
        '/api/ResetPassword': () => json(resetAnswer({ success: true, redirectUrl })),
      });
      const assign = stubLocationAssign();
      const { user } = renderReset();
      await fillBoth(user);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      await act(() => resetButton().click());
      await settled(() => expect(screen.getByText('resetPasswordSuccess')).toBeTruthy());
      await act(() => {
        vi.advanceTimersByTime(REDIRECT_DELAY_MS - 1);
      });
      expect(currentLocation()).toBe('/resetPassword/1/c0de-1');
      await act(() => {
        vi.advanceTimersByTime(1);
      });
      await settled(() => expect(currentLocation()).toBe('/error'));
      expect(assign).not.toHaveBeenCalled();
    },
  );
});

describe('ResetPasswordScreen violations and failures (SPEC §8)', () => {
  it.each([
    ['policyViolation', { policyViolation: true }, 'passwordPolicyViolation'],
    ['historyViolation', { historyViolation: true }, 'passwordHistoryViolation'],
  ] as const)('shows the %s text and keeps the form', async (_case, fields, text) => {
    await submitWith(() => json(resetAnswer(fields)));
    await waitFor(() => expect(alertText()).toBe(text));
    expect(((await newPasswordField()) as HTMLInputElement).value).toBe(STRONG);
    expect(resetButton().disabled).toBe(false);
  });

  it('marks the refused password invalid, pointing to the message, until the person changes it; then the message goes', async () => {
    const { user } = await submitWith(() => json(resetAnswer({ policyViolation: true })));
    await waitFor(() => expect(alertText()).toBe('passwordPolicyViolation'));
    const field = await newPasswordField();
    const message = screen.getByText('passwordPolicyViolation');
    // The rules checked here are met; the service's (a common password, the address) were not.
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    expect(message.id).not.toBe('');

    await user.type(field, 'x');
    expect(alertText()).toBe('');
    expect(field.getAttribute('aria-invalid')).toBe('false');
    expect(field.getAttribute('aria-describedby')?.split(' ')).not.toContain(message.id);
  });

  it('checks the code again after neither success nor violation and, still valid, keeps the form with no message', async () => {
    const { service, user } = await submitWith(() => json(resetAnswer({})));
    await waitFor(() => expect(service.bodiesOf('/api/CheckVerification')).toHaveLength(2));
    expect(service.bodiesOf('/api/CheckVerification')[1]).toEqual({
      verificationCode: 'c0de-1',
      verificationType: 1,
    });
    await idle();
    expect(alertText()).toBe('');
    expect(currentLocation()).toBe('/resetPassword/1/c0de-1');
    expect([(await newPasswordField()).value, confirmField().value]).toEqual([STRONG, STRONG]);
    await user.click(resetButton());
    await waitFor(() => expect(service.bodiesOf('/api/ResetPassword')).toHaveLength(2));
    expect(screen.queryByText(/Success/)).toBeNull();
  });

  it.each([
    [
      VerificationType.PasswordReset,
      QUERY_REDIRECT,
      '/ExpiredLink?RedirectUrl=https%3A%2F%2Fplanner.example%2Fhome',
    ],
    [VerificationType.PasswordExpired, QUERY_RETURN, '/ExpiredLink?RedirectUrl='],
  ] as const)(
    'type %i goes to the expired-link page after neither success nor violation when the code is no longer valid',
    async (type, search, expiredLink) => {
      let check = VALID;
      const service = stubService({
        '/api/CheckVerification': () => json(check),
        '/api/ResetPassword': () => json(resetAnswer({})),
      });
      const { user } = renderReset(type, search);
      await fillBoth(user);
      // Spent, expired or past the guessing limit since the page loaded.
      check = INVALID;
      await user.click(resetButton());
      await waitFor(() => expect(currentLocation()).toBe(expiredLink));
      expect(service.bodiesOf('/api/CheckVerification')).toHaveLength(2);
      expect(screen.queryByRole('alert')?.textContent ?? '').toBe('');
    },
  );

  it('leaves the person on the page they went back to when the check after neither answers only then', async () => {
    let answerCheck: (response: Response) => void = () => {};
    let checks = 0;
    stubService({
      '/api/CheckVerification': () => {
        checks += 1;
        if (checks === 1) return json(VALID);
        return new Promise<Response>((resolve) => {
          answerCheck = resolve;
        });
      },
      '/api/ResetPassword': () => json(resetAnswer({})),
    });
    // The new page is shown from its top (page-arrival.tsx), which jsdom does not do.
    vi.stubGlobal('scrollTo', () => undefined);
    // From the sign-in page, whose login found the password expired, to the reset page.
    window.history.replaceState(null, '', `/${QUERY_RETURN}`);
    window.history.pushState(null, '', `/ResetPassword/2/c0de-1${QUERY_RETURN}`);
    const user = userEvent.setup();
    render(
      <TextContext value={{ texts: TEST_TEXTS, language: 'en' }}>
        <NavigationProvider history={browserHistory}>
          <RouteView />
        </NavigationProvider>
      </TextContext>,
    );
    await fillBoth(user);
    await user.click(resetButton());
    await waitFor(() => expect(checks).toBe(2));

    act(() => window.history.back());
    await screen.findByRole('textbox', { name: 'emailLabel' });
    answerCheck(json(INVALID));
    // Given time to arrive and be handled, the answer moves no one and replaces no page.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(`${window.location.pathname}${window.location.search}`).toBe(`/${QUERY_RETURN}`);
    expect(screen.getByRole('textbox', { name: 'emailLabel' })).toBeTruthy();
  });

  it('shows no message when the check after neither success nor violation fails, keeping the form', async () => {
    let check = () => json(VALID);
    const service = stubService({
      '/api/CheckVerification': () => check(),
      '/api/ResetPassword': () => json(resetAnswer({})),
    });
    const { user } = renderReset();
    await fillBoth(user);
    check = () => refusal('internal_error', 500);
    await user.click(resetButton());
    await waitFor(() => expect(service.bodiesOf('/api/CheckVerification')).toHaveLength(2));
    await idle();
    expect(alertText()).toBe('');
    expect(currentLocation()).toBe('/resetPassword/1/c0de-1');
    expect((await newPasswordField()).value).toBe(STRONG);
    expect(resetButton().disabled).toBe(false);
  });

  it('stops waiting for a reset that gets no answer after 30 s: no message, the form ready to send again', async () => {
    const service = stubService({
      '/api/CheckVerification': () => json(VALID),
      // The request leaves and nothing ever comes back.
      '/api/ResetPassword': () => new Promise<Response>(() => undefined),
    });
    const { user } = renderReset();
    await fillBoth(user);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await act(() => resetButton().click());
    await settled(() => expect(service.bodiesOf('/api/ResetPassword')).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(29_999));
    expect(document.querySelector('form')?.getAttribute('aria-busy')).toBe('true');

    await act(() => vi.advanceTimersByTimeAsync(1));
    await settled(() => expect(document.querySelector('form')?.getAttribute('aria-busy')).toBe('false'));
    expect(alertText()).toBe('');
    // getBy, not findBy: Testing Library's waiting would run on the faked timers.
    const typed = screen.getByLabelText('newPasswordLabel') as HTMLInputElement;
    expect([typed.value, confirmField().value]).toEqual([STRONG, STRONG]);
    expect(resetButton().disabled).toBe(false);
    await act(() => resetButton().click());
    await settled(() => expect(service.bodiesOf('/api/ResetPassword')).toHaveLength(2));
  });

  it.each(FAILED_CALLS)(
    'after %s shows no message (SPEC §8: neither success nor violation), keeps what was typed and lets the user try again',
    async (_case, answer) => {
      const { service, user } = await submitWith(answer);
      await waitFor(() => expect(service.bodiesOf('/api/ResetPassword')).toHaveLength(1));
      await idle();
      expect(alertText()).toBe('');
      expect(currentLocation()).toBe('/resetPassword/1/c0de-1');
      expect([(await newPasswordField()).value, confirmField().value]).toEqual([STRONG, STRONG]);
      // A call without an answer says nothing about the code: it is not checked again.
      expect(service.bodiesOf('/api/CheckVerification')).toHaveLength(1);
      await waitFor(() => expect(resetButton().disabled).toBe(false));
      await user.click(resetButton());
      await waitFor(() => expect(service.bodiesOf('/api/ResetPassword')).toHaveLength(2));
    },
  );

  it('clears a violation when a later call gets no answer, and announces a repeated violation as a new message', async () => {
    const answers: Answer[] = [
      () => json(resetAnswer({ policyViolation: true })),
      () => refusal('internal_error', 500),
      () => json(resetAnswer({ policyViolation: true })),
      () => json(resetAnswer({ policyViolation: true })),
    ];
    const { service, user } = await submitWith(() => answers.shift()?.() ?? json(resetAnswer({})));
    await waitFor(() => expect(alertText()).toBe('passwordPolicyViolation'));
    await idle();
    await user.click(resetButton());
    await waitFor(() => expect(service.bodiesOf('/api/ResetPassword')).toHaveLength(2));
    await waitFor(() => expect(alertText()).toBe(''));
    await idle();
    await user.click(resetButton());
    await waitFor(() => expect(alertText()).toBe('passwordPolicyViolation'));
    const first = screen.getByText('passwordPolicyViolation');
    await idle();
    await user.click(resetButton());
    await waitFor(() => expect(service.bodiesOf('/api/ResetPassword')).toHaveLength(4));
    await waitFor(() => expect(screen.getByText('passwordPolicyViolation')).not.toBe(first));
  });

  it('replaces an earlier violation text when a later answer has none', async () => {
    const answers = [resetAnswer({ historyViolation: true }), resetAnswer({})];
    const { service, user } = await submitWith(() => json(answers.shift()));
    await waitFor(() => expect(alertText()).toBe('passwordHistoryViolation'));
    await user.click(resetButton());
    await waitFor(() => expect(service.bodiesOf('/api/ResetPassword')).toHaveLength(2));
    await waitFor(() => expect(alertText()).toBe(''));
  });
});
