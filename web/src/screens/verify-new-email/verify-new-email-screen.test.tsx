import '../../test-support/dom.ts';
import { type CallResponse, REDIRECT_DELAY_MS } from '@keycard/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLocation } from '../../routing/navigation.tsx';
import { settled } from '../../test-support/settled.ts';
import { renderWithTexts, TEST_TEXTS } from '../../test-support/texts.tsx';
import { VerifyNewEmailScreen } from './verify-new-email-screen.tsx';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const verified = (redirectUrl: string | null): CallResponse<'verifyNewEmail'> => ({
  success: true,
  userFirstName: 'Ada',
  redirectUrl,
});

/** Stubs the network edge (the client reads globalThis.fetch late) and window.location.assign. */
function stubVerify(answer: () => Response | Promise<Response>) {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      expect(new URL(String(input), 'http://spa.test').pathname).toBe('/api/VerifyNewEmail');
      bodies.push(JSON.parse(String(init.body)));
      return answer();
    }),
  );
  const assign = vi.fn<(url: string | URL) => void>();
  vi.stubGlobal('location', { ...window.location, assign });
  return { bodies, assign };
}

function LocationProbe() {
  const { pathname } = useLocation();
  return <div data-testid="location">{pathname}</div>;
}

/** The resource texts of the tests, with the first-name placeholder of the success caption. */
const texts = { ...TEST_TEXTS, newEmailVerified: 'newEmailVerified {userFirstName}' };

function renderVerify(search = '') {
  return renderWithTexts(
    <>
      <VerifyNewEmailScreen code="n3w-mail" />
      <LocationProbe />
    </>,
    `/verifyNewEmail/n3w-mail${search}`,
    { texts },
  );
}

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('VerifyNewEmailScreen (SPEC §2 /verifyNewEmail/{code}, §4)', () => {
  it('says it is verifying while the call runs, with code and RedirectUrl, in its page kind', async () => {
    const { bodies } = stubVerify(() => new Promise<Response>(() => undefined));
    const { container } = renderVerify('?RedirectUrl=https%3A%2F%2Fplanner.example%2F');
    expect(heading()).toBe('verifyingEmail');
    expect(container.querySelector('[data-page-kind]')?.getAttribute('data-page-kind')).toBe(
      'emailVerification',
    );
    await waitFor(() =>
      expect(bodies).toEqual([{ verificationCode: 'n3w-mail', redirectUrl: 'https://planner.example/' }]),
    );
  });

  it('confirms once, names the user and goes to the returned URL after exactly 12500 ms', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { bodies, assign } = stubVerify(() => json(verified('https://planner.example/profile')));
    renderVerify();
    await settled(() => expect(heading()).toBe('emailConfirmedTitle'));
    expect(screen.getByText('newEmailVerified Ada')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
    expect(screen.getByRole('timer').textContent).toBe('redirectCountdown 13');
    expect(screen.getByRole('button', { name: 'continueNow' })).toBeTruthy();
    await act(() => {
      vi.advanceTimersByTime(REDIRECT_DELAY_MS - 1);
    });
    expect(assign).not.toHaveBeenCalled();
    await act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(assign).toHaveBeenCalledExactlyOnceWith('https://planner.example/profile');
    expect(bodies).toEqual([{ verificationCode: 'n3w-mail', redirectUrl: '' }]);
  });

  it.each([['javascript:alert(1)'], ['/local'], [null]])(
    'goes to /error after the delay when the returned URL is %s',
    async (redirectUrl) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const { assign } = stubVerify(() => json(verified(redirectUrl)));
      renderVerify();
      await settled(() => expect(heading()).toBe('emailConfirmedTitle'));
      await act(() => {
        vi.advanceTimersByTime(REDIRECT_DELAY_MS - 1);
      });
      expect(screen.getByTestId('location').textContent).toBe('/verifyNewEmail/n3w-mail');
      await act(() => {
        vi.advanceTimersByTime(1);
      });
      await settled(() => expect(screen.getByTestId('location').textContent).toBe('/error'));
      expect(assign).not.toHaveBeenCalled();
    },
  );

  it('goes to the returned URL at once on "continue now"', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { assign } = stubVerify(() => json(verified('https://planner.example/profile')));
    renderVerify();
    await settled(() => expect(heading()).toBe('emailConfirmedTitle'));
    fireEvent.click(screen.getByRole('button', { name: 'continueNow' }));
    expect(assign).toHaveBeenCalledExactlyOnceWith('https://planner.example/profile');
    await act(() => {
      vi.advanceTimersByTime(REDIRECT_DELAY_MS);
    });
    expect(assign).toHaveBeenCalledOnce();
  });

  it.each([
    ['an unsuccessful answer', () => json({ success: false, userFirstName: null, redirectUrl: null })],
    ['an error answer', () => json({ code: 'not_found', message: 'unknown' }, 404)],
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('shows something-went-wrong after %s, and stays', async (_case, answer) => {
    const { assign } = stubVerify(answer);
    renderVerify();
    expect(await screen.findByText('somethingWentWrong')).toBeTruthy();
    expect(heading()).toBe('errorTitle');
    expect(screen.queryByRole('button', { name: 'continueNow' })).toBeNull();
    expect(screen.queryByRole('timer')).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });
});
