import '../../test-support/dom.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  json,
  localUser,
  QUERY,
  reachPasswordStep,
  renderSignIn,
  stubService,
  wrongPassword,
} from './sign-in-test-kit.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A login answer the test gives when it wants: each call to the service waits for the next one. */
function answersOnCall() {
  const waiting: ((response: Response) => void)[] = [];
  return {
    login: () => new Promise<Response>((resolve) => waiting.push(resolve)),
    async answer(response: Response) {
      await waitFor(() => expect(waiting.length).toBeGreaterThan(0));
      waiting.shift()?.(response);
    },
  };
}

describe('SignInScreen focus, messages and the account of step 2', () => {
  it('focuses the e-mail field when the page opens', () => {
    renderSignIn();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'emailLabel' }));
  });

  it('shows the account being signed in on step 2, with a visible button back to change it', async () => {
    stubService({ '/api/CheckUsername': () => json(localUser) });
    const { user } = renderSignIn();
    await reachPasswordStep(user);
    const shown = screen.getByRole('textbox', { name: 'accountCaption' }) as HTMLInputElement;
    expect([shown.value, shown.readOnly]).toEqual(['ada@example.test', true]);
    const back = screen.getByRole('button', { name: 'backLabel' });
    // The name is the button's own visible text, not a label only assistive technology hears.
    expect(back.textContent).toBe('backLabel');
    expect(back.hasAttribute('aria-label')).toBe(false);
    expect(shown.closest('.sign-in__account')).toBe(back.closest('.sign-in__account'));
  });

  it('links forgot password beside the password field too, in the form, with the page query', async () => {
    stubService({ '/api/CheckUsername': () => json(localUser) });
    const { user } = renderSignIn();
    const password = await reachPasswordStep(user);
    const form = password.closest('form');
    if (!form) throw new Error('the password is in no form');
    const beside = within(form).getByRole('link', { name: 'forgotPasswordLabel' });
    expect(beside.getAttribute('href')).toBe(`/forgotPassword${QUERY}`);
    expect(beside.closest('.field')).toBe(password.closest('.field'));
    // SPEC §2 keeps the footer link as well.
    expect(
      within(screen.getByRole('contentinfo')).getByRole('link', { name: 'forgotPasswordLabel' }),
    ).toBeTruthy();
  });

  it('clears the last failure while the next attempt is in flight, then shows and focuses the new one', async () => {
    const calls = answersOnCall();
    stubService({ '/api/CheckUsername': () => json(localUser), '/api/login': calls.login });
    const { user } = renderSignIn();
    const password = (await reachPasswordStep(user)) as HTMLInputElement;
    await user.type(password, 'wrong-1{Enter}');
    await calls.answer(json(wrongPassword));
    const first = await screen.findByRole('heading', { name: 'wrongPasswordOrUnknownUser' });
    await waitFor(() => expect(document.activeElement).toBe(first));
    expect(password.getAttribute('aria-describedby')).toBe(first.id);

    await user.type(password, 'wrong-2{Enter}');
    // In flight: the old message is gone and no longer describes the field.
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('signingIn'));
    expect(screen.queryByRole('heading', { name: 'wrongPasswordOrUnknownUser' })).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('');
    expect(password.hasAttribute('aria-describedby')).toBe(false);
    expect(password.getAttribute('aria-invalid')).toBe('false');

    await calls.answer(json(wrongPassword));
    const second = await screen.findByRole('heading', { name: 'wrongPasswordOrUnknownUser' });
    await waitFor(() => expect(document.activeElement).toBe(second));
    expect(second.closest('[role="alert"]')).toBe(screen.getByRole('alert'));
    expect(password.getAttribute('aria-describedby')).toBe(second.id);
  });

  it('links the wait after a refusal for too many requests to the password field as well', async () => {
    stubService({
      '/api/CheckUsername': () => json(localUser),
      '/api/login': () =>
        new Response(JSON.stringify({ code: 'rate_limited', message: 'Too many requests' }), {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '42' },
        }),
    });
    const { user } = renderSignIn();
    await user.type(await reachPasswordStep(user), 'Secret-Pass-1{Enter}');
    const wait = await screen.findByText('tooManyRequests 42 seconds');
    const header = screen.getByRole('heading', { name: 'wrongPasswordOrUnknownUser' });
    const password = screen.getByLabelText('passwordLabel');
    expect(password.getAttribute('aria-describedby')?.split(' ')).toEqual([header.id, wait.id]);
    expect(wait.closest('[role="alert"]')).toBeTruthy();
  });

  it('links the expired-sign-in note to the password field as well', async () => {
    stubService({
      '/api/CheckUsername': () => json(localUser),
      '/api/login': () => json({ code: 'interaction_expired', message: 'This sign-in has expired' }, 409),
    });
    const { user } = renderSignIn();
    await user.type(await reachPasswordStep(user), 'Secret-Pass-1{Enter}');
    const note = await screen.findByText('signInExpired');
    const header = screen.getByRole('heading', { name: 'wrongPasswordOrUnknownUser' });
    const password = screen.getByLabelText('passwordLabel');
    expect(password.getAttribute('aria-describedby')?.split(' ')).toEqual([header.id, note.id]);
    expect(note.closest('[role="alert"]')).toBeTruthy();
  });
});
