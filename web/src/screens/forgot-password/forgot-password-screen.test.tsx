import '../../test-support/dom.ts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithTexts } from '../../test-support/texts.tsx';
import { ForgotPasswordScreen } from './forgot-password-screen.tsx';

const QUERY = '?ReturnUrl=%2Fresume%3Fproduct%3DPlanner';

/** Stubs the network edge (the client reads globalThis.fetch late); the answer never arrives by default. */
function stubForgot(answer: () => Promise<Response> = () => new Promise<Response>(() => undefined)) {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      expect(new URL(String(input), 'http://spa.test').pathname).toBe('/api/forgotpassword');
      bodies.push(JSON.parse(String(init.body)));
      return answer();
    }),
  );
  return { bodies };
}

function renderForgot(url = `/forgotPassword${QUERY}`) {
  const user = userEvent.setup();
  return { user, ...renderWithTexts(<ForgotPasswordScreen />, url) };
}

const emailField = () => screen.getByLabelText('emailLabel') as HTMLInputElement;
const heading = () => screen.getByRole('heading', { level: 1 }).textContent;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ForgotPasswordScreen (SPEC §2 /forgotPassword, §4)', () => {
  it('shows the e-mail form in the forgotPassword page kind', () => {
    stubForgot();
    const { container } = renderForgot();
    expect(heading()).toBe('forgotPassword');
    expect(screen.getByText('forgotPasswordIntro')).toBeTruthy();
    expect([emailField().type, emailField().autocomplete, emailField().required]).toEqual([
      'email',
      'username',
      true,
    ]);
    expect(screen.getByRole('button', { name: 'sendLabel' })).toBeTruthy();
    expect(container.querySelector('[data-page-kind]')?.getAttribute('data-page-kind')).toBe(
      'forgotPassword',
    );
  });

  it('thanks on Enter before the service answers, and sends e-mail, ReturnUrl and the query', async () => {
    const { bodies } = stubForgot();
    const { user } = renderForgot();
    await user.type(emailField(), 'ada@example.test{Enter}');

    const thanks = await screen.findByRole('heading', { level: 1, name: 'thankYou' });
    expect(screen.getByText('checkYourEmail')).toBeTruthy();
    expect(screen.queryByLabelText('emailLabel')).toBeNull();
    expect(document.activeElement).toBe(thanks);
    await waitFor(() =>
      expect(bodies).toEqual([
        { email: 'ada@example.test', returnUrl: '/resume?product=Planner', locationSearch: QUERY },
      ]),
    );
  });

  it('thanks on the button too, and sends an empty ReturnUrl when the query holds an ampersand', async () => {
    const { bodies } = stubForgot();
    const { user } = renderForgot('/forgotPassword?ReturnUrl=%2Fresume&x=1');
    await user.type(emailField(), 'ada@example.test');
    await user.click(screen.getByRole('button', { name: 'sendLabel' }));
    expect(await screen.findByText('checkYourEmail')).toBeTruthy();
    await waitFor(() =>
      expect(bodies).toEqual([
        { email: 'ada@example.test', returnUrl: '', locationSearch: '?ReturnUrl=%2Fresume&x=1' },
      ]),
    );
  });

  it.each([
    [
      'an error answer',
      () => Promise.resolve(new Response('{"code":"too_many_requests","message":"x"}', { status: 429 })),
    ],
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('keeps the same thank-you after %s', async (_case, answer) => {
    const { bodies } = stubForgot(answer);
    const { user } = renderForgot();
    await user.type(emailField(), 'ada@example.test{Enter}');
    await waitFor(() => expect(bodies).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heading()).toBe('thankYou');
    expect(screen.getByText('checkYourEmail')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('sends nothing without an address', async () => {
    const { bodies } = stubForgot();
    const { user } = renderForgot();
    await user.type(emailField(), '{Enter}');
    await user.click(screen.getByRole('button', { name: 'sendLabel' }));
    expect(heading()).toBe('forgotPassword');
    expect(bodies).toEqual([]);
  });

  it('links back to sign-in keeping the query string, before and after sending', async () => {
    stubForgot();
    const { user } = renderForgot();
    const href = () => screen.getByRole('link', { name: 'rememberedPasswordLabel' }).getAttribute('href');
    expect(href()).toBe(`/${QUERY}`);
    await user.type(emailField(), 'ada@example.test{Enter}');
    await screen.findByText('checkYourEmail');
    expect(href()).toBe(`/${QUERY}`);
  });

  it('links to the RedirectUrl by way of the service, which checks it, when there is no ReturnUrl to sign in with', () => {
    stubForgot();
    renderForgot('/forgotPassword?RedirectUrl=https%3A%2F%2Fplanner.example%2F');
    expect(screen.getByRole('link', { name: 'rememberedPasswordLabel' }).getAttribute('href')).toBe(
      `${window.location.origin}/api/DefaultRedirect?RedirectUrl=https%3A%2F%2Fplanner.example%2F`,
    );
  });

  it('numbers the form in visual order: e-mail, Send, then the link', async () => {
    stubForgot();
    const { user } = renderForgot();
    const visited: Element[] = [];
    for (let press = 0; press < 3; press += 1) {
      await user.tab();
      if (document.activeElement) visited.push(document.activeElement);
    }
    expect(visited).toEqual([
      emailField(),
      screen.getByRole('button', { name: 'sendLabel' }),
      screen.getByRole('link', { name: 'rememberedPasswordLabel' }),
    ]);
  });
});
