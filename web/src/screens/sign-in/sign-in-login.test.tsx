import '../../test-support/dom.ts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  currentLocation,
  json,
  localUser,
  pageKind,
  QUERY,
  RETURN_URL,
  reachPasswordStep,
  renderSignIn,
  renderSignInRoute,
  stubLocationAssign,
  stubService,
  wrongPassword,
} from './sign-in-test-kit.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Signs in with `login` as the service's answer to /api/login. */
async function signInAnswered(login: () => Response | Promise<Response>) {
  const service = stubService({ '/api/CheckUsername': () => json(localUser), '/api/login': login });
  const assign = stubLocationAssign();
  const view = renderSignIn();
  await view.user.type(await reachPasswordStep(view.user), 'Secret-Pass-1');
  // A click, not Enter: focus leaves the field, so the tests see where the screen puts it back.
  await view.user.click(screen.getByRole('button', { name: 'loginLabel' }));
  return { ...view, service, assign };
}

describe('SignInScreen login results (SPEC §7/§8)', () => {
  it('sends Username, Password and ReturnUrl, and on success loads the identity base plus redirectUrl', async () => {
    const { service, assign } = await signInAnswered(() =>
      json({
        isAuthenticated: true,
        redirectUrl: '/oidc/auth/uid-1',
        verificationType: 0,
        verificationCode: null,
      }),
    );
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/oidc/auth/uid-1'));
    expect(service.bodiesOf('/api/login')).toEqual([
      { Username: 'ada@example.test', Password: 'Secret-Pass-1', ReturnUrl: RETURN_URL },
    ]);
  });

  it('goes to /ResetPassword/2/{code} keeping the query string when the password expired', async () => {
    await signInAnswered(() =>
      json({ isAuthenticated: false, redirectUrl: null, verificationType: 2, verificationCode: 'c0de-9' }),
    );
    await waitFor(() => expect(currentLocation()).toBe(`/ResetPassword/2/c0de-9${QUERY}`));
  });

  it('goes to /locked keeping the query string when the account is locked', async () => {
    await signInAnswered(() =>
      json({ isAuthenticated: false, redirectUrl: null, verificationType: 3, verificationCode: null }),
    );
    await waitFor(() => expect(currentLocation()).toBe(`/locked${QUERY}`));
  });

  it.each([
    ['an unauthenticated answer', () => json(wrongPassword)],
    ['an error answer', () => json({ code: 'internal_error', message: 'boom' }, 500)],
    ['a CSRF refusal', () => json({ code: 'csrf_rejected', message: 'no token' }, 403)],
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])(
    'after %s shows the wrong-password header, focused and describing the field, and changes the background',
    async (_, login) => {
      const { container, assign } = await signInAnswered(login);
      const alert = await screen.findByRole('alert');
      await waitFor(() => expect(alert.textContent).toBe('wrongPasswordOrUnknownUser'));
      const header = screen.getByRole('heading', { name: 'wrongPasswordOrUnknownUser' });
      expect(pageKind(container)).toBe('wrongPasswordUnknownUser');
      const password = screen.getByLabelText('passwordLabel') as HTMLInputElement;
      expect(password.getAttribute('aria-invalid')).toBe('true');
      expect(password.getAttribute('aria-describedby')).toBe(header.id);
      await waitFor(() => expect(document.activeElement).toBe(header));
      expect(assign).not.toHaveBeenCalled();
      expect(currentLocation()).toBe(`/${QUERY}`);
    },
  );

  it('clears the password when the service answers that the sign-in failed', async () => {
    await signInAnswered(() => json(wrongPassword));
    await screen.findByRole('heading', { name: 'wrongPasswordOrUnknownUser' });
    expect((screen.getByLabelText('passwordLabel') as HTMLInputElement).value).toBe('');
  });

  it.each([
    ['an error answer', () => json({ code: 'internal_error', message: 'boom' }, 500)],
    ['a CSRF refusal', () => json({ code: 'csrf_rejected', message: 'no token' }, 403)],
    ['a 503', () => json({ code: 'service_unavailable', message: 'down' }, 503)],
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('keeps the password typed after %s, which says nothing about it', async (_, login) => {
    await signInAnswered(login);
    await screen.findByRole('heading', { name: 'wrongPasswordOrUnknownUser' });
    expect((screen.getByLabelText('passwordLabel') as HTMLInputElement).value).toBe('Secret-Pass-1');
  });

  it('after a refusal for too many requests also says how long to wait, keeping the SPEC §8 failure', async () => {
    let answer = () =>
      new Response(JSON.stringify({ code: 'rate_limited', message: 'Too many requests' }), {
        status: 429,
        headers: { 'Content-Type': 'application/json', 'Retry-After': '42' },
      });
    const { container, user, service } = await signInAnswered(() => answer());
    const alert = await screen.findByRole('alert');
    await waitFor(() =>
      expect(alert.textContent).toBe('wrongPasswordOrUnknownUsertooManyRequests 42 seconds'),
    );
    expect(screen.getByText('tooManyRequests 42 seconds').tagName).toBe('P');
    expect(pageKind(container)).toBe('wrongPasswordUnknownUser');
    // Refused before the password was looked at: it stays, to be sent again after the wait.
    const password = screen.getByLabelText('passwordLabel') as HTMLInputElement;
    expect(password.value).toBe('Secret-Pass-1');

    // The next attempt is an ordinary wrong password: the wait goes, the header stays.
    answer = () => json(wrongPassword);
    await user.type(password, '{Enter}');
    await waitFor(() => expect(alert.textContent).toBe('wrongPasswordOrUnknownUser'));
    expect(service.bodiesOf('/api/login').map((body) => (body as { Password: string }).Password)).toEqual([
      'Secret-Pass-1',
      'Secret-Pass-1',
    ]);
  });

  it('after a refusal because the sign-in expired also says to start again from the application, keeping the SPEC §8 failure', async () => {
    let answer = () => json({ code: 'interaction_expired', message: 'This sign-in has expired' }, 409);
    const { container, user } = await signInAnswered(() => answer());
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert.textContent).toBe('wrongPasswordOrUnknownUsersignInExpired'));
    const header = screen.getByRole('heading', { name: 'wrongPasswordOrUnknownUser' });
    await waitFor(() => expect(document.activeElement).toBe(header));
    expect(screen.getByText('signInExpired').tagName).toBe('P');
    expect(pageKind(container)).toBe('wrongPasswordUnknownUser');
    // The password was never checked: it stays.
    const password = screen.getByLabelText('passwordLabel') as HTMLInputElement;
    expect(password.value).toBe('Secret-Pass-1');

    // Another refusal for the same reason is a new message; then an ordinary wrong password has none.
    const first = screen.getByText('signInExpired');
    await user.type(password, '{Enter}');
    await waitFor(() => expect(screen.getByText('signInExpired')).not.toBe(first));
    answer = () => json(wrongPassword);
    await user.type(password, '{Enter}');
    await waitFor(() => expect(alert.textContent).toBe('wrongPasswordOrUnknownUser'));
  });

  it('says nothing of an expired sign-in after Back, which clears the failure', async () => {
    const { user } = await signInAnswered(() =>
      json({ code: 'interaction_expired', message: 'This sign-in has expired' }, 409),
    );
    await screen.findByText('signInExpired');
    await user.click(screen.getByRole('button', { name: 'backLabel' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(''));
  });

  it.each([
    ['in minutes, rounded up', '150', 'tooManyRequests 3 minutes'],
    ["a minute, the request limit's window, when no Retry-After came", null, 'tooManyRequests 1 minute'],
  ])('says the wait %s', async (_, retryAfter, text) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (retryAfter !== null) headers['Retry-After'] = retryAfter;
    await signInAnswered(
      () => new Response(JSON.stringify({ code: 'rate_limited', message: 'x' }), { status: 429, headers }),
    );
    expect(await screen.findByText(text)).toBeTruthy();
  });

  it('stays on the page the person went to while the login ran, even when it answers locked', async () => {
    let answer: (response: Response) => void = () => {};
    const pending = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    stubService({ '/api/CheckUsername': () => json(localUser), '/api/login': () => pending });
    // The new page is shown from its top (page-arrival.tsx), which jsdom does not do.
    vi.stubGlobal('scrollTo', () => undefined);
    const { user } = renderSignInRoute();
    await user.type(await screen.findByRole('textbox', { name: 'emailLabel' }), 'ada@example.test{Enter}');
    await user.type(await screen.findByLabelText('passwordLabel'), 'Secret-Pass-1{Enter}');
    await user.click(within(screen.getByRole('main')).getByRole('link', { name: 'forgotPasswordLabel' }));
    // At once, whether or not the forgot-password page is on show yet: unless an earlier test loaded
    // its code, the sign-in page is still mounted while it loads (use-live.test.tsx and the sign-in
    // journey hold it on purpose).
    answer(json({ isAuthenticated: false, redirectUrl: null, verificationType: 3, verificationCode: null }));
    const forgot = await screen.findByRole('heading', { level: 1, name: 'forgotPassword' });
    await waitFor(() => expect(document.activeElement).toBe(forgot));
    // Given time to arrive and be handled, the answer moves no one.
    await act(() => pending.then(() => new Promise((resolve) => setTimeout(resolve, 0))));
    expect(currentLocation()).toBe(`/forgotPassword${QUERY}`);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('forgotPassword');
  });

  it('sends one login while a request is in flight, showing it busy and announcing signingIn', async () => {
    let answer: (response: Response) => void = () => {};
    const pending = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    const { user, service } = await signInAnswered(() => pending);
    const login = screen.getByRole('button', { name: 'loginLabel' }) as HTMLButtonElement;
    // Pressed, it keeps focus: aria-disabled, not disabled, while the call runs.
    await waitFor(() => expect(login.getAttribute('aria-disabled')).toBe('true'));
    expect(login.disabled).toBe(false);
    expect(document.activeElement).toBe(login);
    expect(login.closest('form')?.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('signingIn');

    await user.click(login);
    await user.type(screen.getByLabelText('passwordLabel'), '{Enter}{Enter}');
    login.closest('form')?.requestSubmit();
    answer(json(wrongPassword));

    await screen.findByRole('heading', { name: 'wrongPasswordOrUnknownUser' });
    expect(service.bodiesOf('/api/login')).toHaveLength(1);
    expect(login.getAttribute('aria-disabled')).toBe('false');
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
