import type { TextResource } from '@keycard/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type Mock, vi } from 'vitest';
import { RouteView } from '../../app/route-view.tsx';
import { useLocation } from '../../routing/navigation.tsx';
import { renderWithTexts, TEST_TEXTS } from '../../test-support/texts.tsx';
import { SignInScreen } from './sign-in-screen.tsx';

/** The query the identity service's interaction URL carries (ReturnUrl with its product). */
export const QUERY = '?ReturnUrl=%2Foidc%2Fauth%2Fuid-1%3Fproduct%3DPlanner';
export const RETURN_URL = '/oidc/auth/uid-1?product=Planner';

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export const localUser = {
  userHasExternalIdentityProvider: false,
  returnUrl: null,
  externalIdentityProviderGuid: null,
};
export const wrongPassword = {
  isAuthenticated: false,
  redirectUrl: null,
  verificationType: 0,
  verificationCode: null,
};

type Answer = () => Response | Promise<Response>;

/**
 * Stubs the network edge only: the API client reads `globalThis.fetch` late, so the real client,
 * its paths and its contract parsing all run. Answers are by path; each request body is recorded.
 */
export function stubService(answers: Record<string, Answer>) {
  const requests: { path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const path = new URL(String(input), 'http://spa.test').pathname;
      requests.push({ path, body: JSON.parse(String(init.body ?? 'null')) });
      const answer = answers[path];
      return answer ? answer() : json({ code: 'not_found', message: 'no route' }, 404);
    }),
  );
  return { requests, bodiesOf: (path: string) => requests.filter((r) => r.path === path).map((r) => r.body) };
}

/** Replaces window.location so full page loads (location.assign) are recorded, not performed. */
export function stubLocationAssign(): Mock<(url: string | URL) => void> {
  const assign = vi.fn<(url: string | URL) => void>();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}

/** Shows the router's location, to assert navigation inside the application. */
function LocationProbe() {
  const { pathname, search } = useLocation();
  return <div data-testid="location">{`${pathname}${search}`}</div>;
}

export function currentLocation(): string {
  return screen.getByTestId('location').textContent ?? '';
}

export function pageKind(container: Element): string | null {
  return container.querySelector('[data-page-kind]')?.getAttribute('data-page-kind') ?? null;
}

/** Renders the sign-in page at `url` with a user-event session; `texts` replace some test texts. */
export function renderSignIn(url = `/${QUERY}`, texts: Partial<TextResource> = {}) {
  const user = userEvent.setup();
  const view = renderWithTexts(
    <>
      <SignInScreen />
      <LocationProbe />
    </>,
    url,
    { texts: { ...TEST_TEXTS, ...texts } },
  );
  return { user, ...view };
}

/**
 * Renders the SPA's route view at the sign-in page, so a link takes the person to another screen and
 * the sign-in page goes, as in the browser.
 */
export function renderSignInRoute(url = `/${QUERY}`) {
  const user = userEvent.setup();
  const view = renderWithTexts(
    <>
      <RouteView />
      <LocationProbe />
    </>,
    url,
  );
  return { user, ...view };
}

/** Goes through step 1 with a local (non-federated) address and waits for the password field. */
export async function reachPasswordStep(
  user: ReturnType<typeof userEvent.setup>,
  email = 'ada@example.test',
) {
  await user.type(screen.getByLabelText('emailLabel'), `${email}{Enter}`);
  return screen.findByLabelText('passwordLabel');
}
