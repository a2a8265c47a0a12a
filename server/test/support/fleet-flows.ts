import {
  checkVerificationResponse,
  loginResponse,
  logoutResponse,
  resetPasswordResponse,
  unlockUserResponse,
  VerificationType,
} from '@keycard/contract';
import type { ReceivedMail, SmtpSink } from '../mail-sink.ts';
import type { FleetBrowser } from './fleet-browser.ts';
import { authorizationRequest, CLIENT_ID, claimsOf, POST_LOGOUT_URI, REDIRECT_URI } from './oidc-flow.ts';

/**
 * The flows of SPEC §7 as the SPA and a relying party run them, one HTTP call at a time through the
 * load balancer. Each throws when an answer is not the one the flow needs.
 */

/** Where the simulated people read their mail: the SMTP sink every instance sends to. */
export interface Mailbox {
  readonly sink: SmtpSink;
  /** How long a message may take: longer than a worker's poll, for mail queued by an instance that then died. */
  readonly waitMs: number;
}

function fail(step: string, answer: { status: number; body: string }): never {
  throw new Error(`${step} answered ${answer.status} ${answer.body.slice(0, 300)}`);
}

/**
 * The relying party's authorization request, then the sign-in page the provider sends the browser to
 * (its CSRF token): answers the page's ReturnUrl, the verifier and the state.
 */
export async function openSignInPage(browser: FleetBrowser) {
  const request = authorizationRequest();
  const answer = await browser.get(request.path);
  const returnUrl = new URL(answer.location || '/', 'http://x').searchParams.get('ReturnUrl');
  if (answer.status !== 303 || !returnUrl) fail('authorize', answer);
  await browser.loadSpa();
  return { ...request, returnUrl };
}

/** Follows the provider's redirects after a sign-in to the relying party's callback; answers its code. */
async function followToCallback(browser: FleetBrowser, path: string, state: string): Promise<string> {
  let answer = await browser.get(path);
  for (let hop = 0; hop < 5 && answer.status >= 300 && answer.status < 400; hop++) {
    if (answer.location.startsWith(REDIRECT_URI)) {
      const callback = new URL(answer.location);
      if (callback.searchParams.get('state') !== state) fail('callback state', answer);
      return callback.searchParams.get('code') ?? fail('callback code', answer);
    }
    const next = new URL(answer.location, 'http://x');
    answer = await browser.get(next.pathname + next.search);
  }
  return fail('resume', answer);
}

/** The relying party redeems a code at the token endpoint (PKCE verifier, public client). */
export function redeem(browser: FleetBrowser, code: string, verifier: string) {
  return browser.form('/oidc/token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: CLIENT_ID,
    code_verifier: verifier,
  });
}

/** Sends the two steps of the sign-in page's login; answers the login response. */
export async function login(browser: FleetBrowser, email: string, password: string, returnUrl = '') {
  const answer = await browser.post('/api/login', {
    Username: email,
    Password: password,
    ReturnUrl: returnUrl,
  });
  if (answer.status !== 200) fail('login', answer);
  return loginResponse.parse(answer.json());
}

/** Code flow with PKCE up to the callback: answers the authorization code and its verifier. */
export async function signInToCode(browser: FleetBrowser, email: string, password: string) {
  const auth = await openSignInPage(browser);
  const result = await login(browser, email, password, auth.returnUrl);
  if (!result.isAuthenticated || !result.redirectUrl)
    throw new Error(`sign-in refused: ${JSON.stringify(result)}`);
  return { code: await followToCallback(browser, result.redirectUrl, auth.state), verifier: auth.verifier };
}

/** A whole sign-in: the code redeemed for tokens whose ID token names the account. Answers the ID token. */
export async function signIn(browser: FleetBrowser, email: string, password: string): Promise<string> {
  const { code, verifier } = await signInToCode(browser, email, password);
  const tokens = await redeem(browser, code, verifier);
  if (tokens.status !== 200) fail('token', tokens);
  const idToken = tokens.json<{ id_token: string }>().id_token;
  if (claimsOf(idToken).email !== email) throw new Error(`ID token of ${String(claimsOf(idToken).email)}`);
  return idToken;
}

/** RP-initiated logout through /logout and /api/Logout; then a silent sign-in must be refused. */
export async function signOut(browser: FleetBrowser, idToken: string): Promise<void> {
  const end = await browser.get(
    `/oidc/session/end?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT_URI })}`,
  );
  const logoutId = new URL(end.location || '/', 'http://x').searchParams.get('logoutId');
  if (end.status !== 303 || !logoutId) fail('end session', end);
  const logout = await browser.post('/api/Logout', { logoutId });
  if (logout.status !== 200) fail('logout', logout);
  logoutResponse.parse(logout.json());
  const silent = await browser.get(authorizationRequest({ prompt: 'none' }).path);
  if (!silent.location.startsWith(REDIRECT_URI) || !silent.location.includes('error=login_required')) {
    fail('silent sign-in after logout', silent);
  }
}

/** The code in a mailed link of `route` (resetPassword, unlock): its last path segment. */
function codeIn(mail: ReceivedMail, route: string): string | undefined {
  const link = (mail.parsed.text ?? '').match(new RegExp(`https?://\\S+/${route}/[^\\s)>\\]]+`))?.[0];
  const segment = link === undefined ? undefined : new URL(link).pathname.split('/').at(-1);
  return segment === undefined ? undefined : decodeURIComponent(segment);
}

/** Waits for the next message to `email` carrying a link of `route`; answers its code. */
export async function mailedCode(
  mailbox: Mailbox,
  email: string,
  route: string,
  from: number,
): Promise<string> {
  const mail = await mailbox.sink.waitForMail(
    (message) => message.to.includes(email) && codeIn(message, route) !== undefined,
    from,
    mailbox.waitMs,
  );
  return codeIn(mail, route) ?? '';
}

/** Forgot password (SPEC §7): answers the code of the reset mail it causes. */
export async function forgotPassword(
  browser: FleetBrowser,
  mailbox: Mailbox,
  email: string,
): Promise<string> {
  const from = mailbox.sink.received.length;
  await browser.loadSpa();
  const asked = await browser.post('/api/forgotpassword', { email, returnUrl: null, locationSearch: '' });
  if (asked.status !== 200) fail('forgot password', asked);
  return mailedCode(mailbox, email, 'resetPassword', from);
}

/** Checks a reset code as the reset screen does on load. */
export async function resetCodeValid(browser: FleetBrowser, code: string): Promise<boolean> {
  const check = await browser.post('/api/CheckVerification', {
    verificationCode: code,
    verificationType: VerificationType.PasswordReset,
  });
  if (check.status !== 200) fail('check verification', check);
  return checkVerificationResponse.parse(check.json()).isValid;
}

/** Sets a new password with a reset code; answers whether the service took it. */
export async function resetPassword(
  browser: FleetBrowser,
  code: string,
  newPassword: string,
): Promise<boolean> {
  const reset = await browser.post('/api/ResetPassword', {
    verificationCode: code,
    verificationType: VerificationType.PasswordReset,
    newPassword,
    redirectUrl: null,
  });
  if (reset.status !== 200) fail('reset password', reset);
  const result = resetPasswordResponse.parse(reset.json());
  if (result.policyViolation || result.historyViolation) throw new Error(`reset refused: ${reset.body}`);
  return result.success;
}

/** Unlocks with the mailed code; answers whether the service took it. */
export async function unlock(browser: FleetBrowser, code: string): Promise<boolean> {
  const answer = await browser.post('/api/UnlockUser', { verificationCode: code, redirectUrl: null });
  if (answer.status !== 200) fail('unlock', answer);
  return unlockUserResponse.parse(answer.json()).success;
}
