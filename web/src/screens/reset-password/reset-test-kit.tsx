import { type CallResponse, VerificationType } from '@keycard/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, type Mock, vi } from 'vitest';
import { useLocation } from '../../routing/navigation.tsx';
import { renderWithTexts } from '../../test-support/texts.tsx';
import { ResetPasswordScreen } from './reset-password-screen.tsx';

export const STRONG = 'Abcdefgh1!xy';

/**
 * The form loads the real strength estimator (use-password-strength.ts). Building it indexes its word
 * lists, which takes seconds on a busy test machine: done once per file before the tests, so a test
 * that types measures the typing, not the build.
 */
beforeAll(async () => {
  const { strengthEstimator } = await import('./strength-estimator.ts');
  strengthEstimator();
}, 60_000);

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The service's refusal of a call: its error body with `code`, at `status`, with `headers`. */
export function refusal(code: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ code, message: code }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** Calls that get no answer the page can use, each with the message it shows (test texts). */
export const FAILED_CALLS = [
  ['no answer (network)', () => Promise.reject(new TypeError('Failed to fetch')), 'somethingWentWrong'],
  ['a 500', () => refusal('internal_error', 500), 'somethingWentWrong'],
  ['a CSRF refusal', () => refusal('csrf_rejected', 403), 'somethingWentWrong'],
  ['a 503', () => refusal('service_unavailable', 503), 'temporarilyUnavailable'],
  ['a rate limit', () => refusal('rate_limited', 429, { 'Retry-After': '42' }), 'tooManyRequests 42 seconds'],
] as const;

export const VALID: CallResponse<'checkVerification'> = { isValid: true, userName: 'ada@example.test' };
export const INVALID: CallResponse<'checkVerification'> = { isValid: false, userName: null };

export function resetAnswer(fields: Partial<CallResponse<'resetPassword'>>): CallResponse<'resetPassword'> {
  return { success: false, redirectUrl: null, policyViolation: false, historyViolation: false, ...fields };
}

type Answer = () => Response | Promise<Response>;

/**
 * Stubs the network edge only (the API client reads globalThis.fetch late), so the real client, its
 * paths and its contract parsing run. Answers are by path; request bodies are recorded.
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
  return { bodiesOf: (path: string) => requests.filter((r) => r.path === path).map((r) => r.body) };
}

/** Replaces window.location so full page loads (location.assign) are recorded, not performed. */
export function stubLocationAssign(): Mock<(url: string | URL) => void> {
  const assign = vi.fn<(url: string | URL) => void>();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}

function LocationProbe() {
  const { pathname, search } = useLocation();
  return <div data-testid="location">{`${pathname}${search}`}</div>;
}

/** The router's location, to assert navigation inside the application. */
export function currentLocation(): string {
  return screen.getByTestId('location').textContent ?? '';
}

/** Renders the reset page for a code at `search`, with a user-event session. */
export function renderReset(
  verificationType: VerificationType = VerificationType.PasswordReset,
  search = '',
  options: { readonly advanceTimers?: (ms: number) => unknown } = {},
) {
  const user = userEvent.setup(options.advanceTimers ? { advanceTimers: options.advanceTimers } : {});
  const view = renderWithTexts(
    <>
      <ResetPasswordScreen verificationType={verificationType} code="c0de-1" />
      <LocationProbe />
    </>,
    `/resetPassword/${verificationType}/c0de-1${search}`,
  );
  return { user, ...view };
}

export const newPasswordField = () => screen.findByLabelText('newPasswordLabel') as Promise<HTMLInputElement>;
export const confirmField = () => screen.getByLabelText('confirmPasswordLabel') as HTMLInputElement;
export const resetButton = () => screen.getByRole('button', { name: 'resetLabel' }) as HTMLButtonElement;

/** Types both fields (leaving the first, which switches validation on). */
export async function fillBoth(
  user: ReturnType<typeof userEvent.setup>,
  password = STRONG,
  confirm = password,
) {
  await user.type(await newPasswordField(), password);
  await user.type(confirmField(), confirm);
}
