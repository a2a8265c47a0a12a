/**
 * What the relying party's authorization request asked of the authentication (OpenID Connect Core
 * §3.1.2.1). Keycard does not authenticate a federated person itself, so the organisation's provider
 * is asked the same, and its answer is checked.
 */
export interface Reauthentication {
  /** `prompt=login`: authenticate the person again, whatever session they have. */
  readonly promptLogin: boolean;
  /** `max_age`: how many seconds ago the authentication may have happened at most; null when not asked. */
  readonly maxAge: number | null;
  /**
   * The sign-in session's absolute lifetime (SESSION_MAX_DAYS) in seconds, counted from the
   * authentication: an older one would start a session already over, so it is asked upstream as a
   * `max_age` of its own whatever the relying party asked, and refused if the provider ignores it.
   */
  readonly sessionMaxAge: number;
}

/**
 * The interaction's authorization parameters as oidc-provider stored them: `prompt` space-separated,
 * `max_age` a non-negative integer in text (the client's default_max_age when the request had none;
 * 0 is already turned into prompt=login by oidc-provider).
 */
export function reauthenticationAsked(
  params: Readonly<Record<string, unknown>>,
  sessionMaxAge: number,
): Reauthentication {
  const { prompt, max_age: maxAge } = params;
  return {
    promptLogin: typeof prompt === 'string' && prompt.split(' ').includes('login'),
    maxAge: typeof maxAge === 'string' && /^\d{1,15}$/.test(maxAge) ? Number(maxAge) : null,
    sessionMaxAge,
  };
}

/**
 * The upstream authorization request's parameters that ask the organisation's provider the same, and
 * never an authentication older than the session would last.
 */
export function upstreamReauthenticationParameters(asked: Reauthentication): Record<string, string> {
  return {
    ...(asked.promptLogin ? { prompt: 'login' } : {}),
    max_age: String(Math.min(asked.maxAge ?? asked.sessionMaxAge, asked.sessionMaxAge)),
  };
}

/** Clocks of two servers disagree a little: openid-client's own auth_time check allows as much. */
const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * Whether the upstream authentication is as recent as the relying party asked: a provider may ignore
 * the prompt=login and max_age it was passed, and the relying party would then get an older
 * authentication than it asked for. With max_age the ID token must state auth_time (OpenID Connect
 * Core §2) and it may be at most max_age old; with prompt=login an auth_time the token states must be
 * no earlier than the moment this sign-in was sent upstream (`sentAt`). Epoch seconds; `now` and
 * `sentAt` by the service's clock, allowing 30 s for the provider's. An auth_time as old as the
 * session's absolute lifetime is refused without that allowance: its session would be over at once.
 */
export function authenticationAgeRefusal(
  asked: Reauthentication,
  authTime: unknown,
  now: Date,
  sentAt: Date,
): 'auth_time_missing' | 'authentication_too_old' | null {
  const stated = typeof authTime === 'number' && Number.isFinite(authTime) ? authTime : null;
  if (stated !== null && stated + asked.sessionMaxAge <= secondsOf(now)) return 'authentication_too_old';
  if (asked.maxAge !== null) {
    if (stated === null) return 'auth_time_missing';
    if (stated + asked.maxAge < secondsOf(now) - CLOCK_TOLERANCE_SECONDS) return 'authentication_too_old';
  }
  if (asked.promptLogin && stated !== null && stated < secondsOf(sentAt) - CLOCK_TOLERANCE_SECONDS) {
    return 'authentication_too_old';
  }
  return null;
}

/**
 * The session's login time: the upstream auth_time, so the ID token's auth_time and every later
 * max_age check count from when the person authenticated, not from when they came back. Never later
 * than `nowSeconds` (the provider's clock may be ahead), in whole seconds (a NumericDate may carry a
 * fraction); unset (undefined: now) when the provider did not say.
 */
export function upstreamLoginTime(authTime: number | null, nowSeconds: number): number | undefined {
  return authTime === null ? undefined : Math.floor(Math.min(authTime, nowSeconds));
}

function secondsOf(time: Date): number {
  return Math.floor(time.getTime() / 1000);
}
