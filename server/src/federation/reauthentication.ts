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
}

/**
 * The interaction's authorization parameters as oidc-provider stored them: `prompt` space-separated,
 * `max_age` a non-negative integer in text (the client's default_max_age when the request had none;
 * 0 is already turned into prompt=login by oidc-provider).
 */
export function reauthenticationAsked(params: Readonly<Record<string, unknown>>): Reauthentication {
  const { prompt, max_age: maxAge } = params;
  return {
    promptLogin: typeof prompt === 'string' && prompt.split(' ').includes('login'),
    maxAge: typeof maxAge === 'string' && /^\d{1,15}$/.test(maxAge) ? Number(maxAge) : null,
  };
}

/** The upstream authorization request's parameters that ask the organisation's provider the same. */
export function upstreamReauthenticationParameters(asked: Reauthentication): Record<string, string> {
  return {
    ...(asked.promptLogin ? { prompt: 'login' } : {}),
    ...(asked.maxAge === null ? {} : { max_age: String(asked.maxAge) }),
  };
}

/** Clocks of two servers disagree a little: openid-client's own auth_time check allows as much. */
const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * Whether the upstream authentication satisfies max_age: a provider may ignore the max_age it was
 * passed, and the relying party would then get an older authentication than it asked for. With
 * max_age the ID token must state auth_time (OpenID Connect Core §2); epoch seconds, as `now` is read.
 */
export function authenticationAgeRefusal(
  maxAge: number | null,
  authTime: unknown,
  now: Date,
): 'auth_time_missing' | 'authentication_too_old' | null {
  if (maxAge === null) return null;
  if (typeof authTime !== 'number' || !Number.isFinite(authTime)) return 'auth_time_missing';
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return authTime + maxAge < nowSeconds - CLOCK_TOLERANCE_SECONDS ? 'authentication_too_old' : null;
}
