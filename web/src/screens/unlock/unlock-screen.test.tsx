import '../../test-support/dom.ts';
import { type CallResponse, REDIRECT_DELAY_MS } from '@keycard/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLocation } from '../../routing/navigation.tsx';
import { settled } from '../../test-support/settled.ts';
import { renderWithTexts, TEST_TEXTS } from '../../test-support/texts.tsx';
import { UnlockScreen } from './unlock-screen.tsx';

type UnlockAnswer = CallResponse<'unlockUser'>;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const unlocked = (fields: Partial<UnlockAnswer> = {}): UnlockAnswer => ({
  success: true,
  userName: 'Ada Lovelace',
  linkExpired: false,
  redirectUrl: 'https://planner.example/home',
  ...fields,
});

/** Stubs the network edge (the client reads globalThis.fetch late) and window.location.assign. */
function stubUnlock(answer: () => Response | Promise<Response>) {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      expect(new URL(String(input), 'http://spa.test').pathname).toBe('/api/UnlockUser');
      bodies.push(JSON.parse(String(init.body)));
      return answer();
    }),
  );
  const assign = vi.fn<(url: string | URL) => void>();
  vi.stubGlobal('location', { ...window.location, assign });
  return { bodies, assign };
}

function LocationProbe() {
  const { pathname, search } = useLocation();
  return <div data-testid="location">{`${pathname}${search}`}</div>;
}

/** The resource texts of the tests, with the user name placeholder of the success header. */
const texts = { ...TEST_TEXTS, unlockSuccessful: 'unlockSuccessful {userName}' };

function renderUnlock(search = '') {
  return renderWithTexts(
    <>
      <UnlockScreen code="unl0ck" />
      <LocationProbe />
    </>,
    `/unlock/unl0ck${search}`,
    { texts },
  );
}

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;
const hrefOf = (name: string) => screen.getByRole('link', { name }).getAttribute('href');

/** Lets the clock run the whole delay, one millisecond short first. */
async function runDelay(assign: ReturnType<typeof stubUnlock>['assign']) {
  await act(() => {
    vi.advanceTimersByTime(REDIRECT_DELAY_MS - 1);
  });
  expect(assign).not.toHaveBeenCalled();
  await act(() => {
    vi.advanceTimersByTime(1);
  });
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('UnlockScreen (SPEC §2 /unlock/{code}, §4)', () => {
  it('says it is unlocking while the call runs, in the unlock page kind', async () => {
    const { bodies } = stubUnlock(() => new Promise<Response>(() => undefined));
    const { container } = renderUnlock('?RedirectUrl=https%3A%2F%2Fplanner.example%2F');
    expect(heading()).toBe('unlockInProgress');
    expect(container.querySelector('[data-page-kind]')?.getAttribute('data-page-kind')).toBe('unlock');
    await waitFor(() =>
      expect(bodies).toEqual([{ verificationCode: 'unl0ck', redirectUrl: 'https://planner.example/' }]),
    );
  });

  it('unlocks once, heads the page with the user name and goes to the redirectUrl after 12500 ms', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { bodies, assign } = stubUnlock(() => json(unlocked()));
    renderUnlock();
    await settled(() => expect(heading()).toBe('unlockSuccessful Ada Lovelace'));
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
    expect(screen.getByRole('timer').textContent).toBe('redirectCountdown 13');
    await runDelay(assign);
    expect(assign).toHaveBeenCalledExactlyOnceWith('https://planner.example/home');
    expect(bodies).toEqual([{ verificationCode: 'unl0ck', redirectUrl: '' }]);
  });

  it.each([
    ['no redirectUrl, with a ReturnUrl', undefined, '?ReturnUrl=%2Fresume', '/?ReturnUrl=%2Fresume'],
    [
      'a script URL, with a ReturnUrl',
      'javascript:alert(1)',
      '?ReturnUrl=%2Fresume',
      '/?ReturnUrl=%2Fresume',
    ],
    ['a local path, without a query', '/elsewhere', '', '/'],
  ] as const)(
    'after a success with %s goes to the login target %s',
    async (_case, redirectUrl, search, target) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const { assign } = stubUnlock(() => json(unlocked({ redirectUrl })));
      renderUnlock(search);
      await settled(() => expect(heading()).toBe('unlockSuccessful Ada Lovelace'));
      await runDelay(assign);
      await settled(() => expect(screen.getByTestId('location').textContent).toBe(target));
      expect(assign).not.toHaveBeenCalled();
    },
  );

  it('goes to the login target at once on "continue now", replacing the unlock page', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { assign } = stubUnlock(() => json(unlocked({ redirectUrl: null })));
    renderUnlock('?ReturnUrl=%2Fresume');
    await settled(() => expect(heading()).toBe('unlockSuccessful Ada Lovelace'));
    fireEvent.click(screen.getByRole('button', { name: 'continueNow' }));
    await settled(() => expect(screen.getByTestId('location').textContent).toBe('/?ReturnUrl=%2Fresume'));
    await act(() => {
      vi.advanceTimersByTime(REDIRECT_DELAY_MS);
    });
    expect(assign).not.toHaveBeenCalled();
  });

  it('goes to the RedirectUrl of the query by way of the service when the answer has no http(s) URL', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { assign, bodies } = stubUnlock(() => json(unlocked({ redirectUrl: null })));
    renderUnlock('?RedirectUrl=https%3A%2F%2Fplanner.example%2F');
    await settled(() => expect(heading()).toBe('unlockSuccessful Ada Lovelace'));
    await runDelay(assign);
    expect(assign).toHaveBeenCalledExactlyOnceWith(
      `${window.location.origin}/api/DefaultRedirect?RedirectUrl=https%3A%2F%2Fplanner.example%2F`,
    );
    expect(bodies).toEqual([{ verificationCode: 'unl0ck', redirectUrl: 'https://planner.example/' }]);
  });

  it('shows the unlock-link-expired text with links to forgot password and login', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { assign } = stubUnlock(() => json({ success: false, userName: null, linkExpired: true }));
    renderUnlock('?ReturnUrl=%2Fresume');
    await settled(() => expect(screen.getByText('unlockLinkExpired')).toBeTruthy());
    expect(heading()).toBe('passwordLinkExpired');
    expect(hrefOf('forgotPasswordLabel')).toBe('/forgotPassword?ReturnUrl=%2Fresume');
    expect(hrefOf('goToLoginLabel')).toBe('/?ReturnUrl=%2Fresume');
    await act(() => {
      vi.advanceTimersByTime(REDIRECT_DELAY_MS * 2);
    });
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByTestId('location').textContent).toBe('/unlock/unl0ck?ReturnUrl=%2Fresume');
  });

  it.each([
    ['a failed unlock', () => json({ success: false, userName: null, linkExpired: false })],
    ['an error answer', () => json({ code: 'internal_error', message: 'boom' }, 500)],
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('shows something-went-wrong after %s, and stays', async (_case, answer) => {
    const { assign } = stubUnlock(answer);
    renderUnlock();
    expect(await screen.findByText('somethingWentWrong')).toBeTruthy();
    expect(heading()).toBe('errorTitle');
    expect(screen.queryByRole('link', { name: 'goToLoginLabel' })).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });
});
