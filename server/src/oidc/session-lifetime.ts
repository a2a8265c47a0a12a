import type { KoaContextWithOIDC, Session } from 'oidc-provider';
import type { Config } from '../config.ts';

/** How long a sign-in session lasts (24 hours unused, SESSION_MAX_DAYS at most), in seconds. */
export type SessionLifetimes = Config['sessionLifetimes'];

/** The stored session's fields this reads: when its account signed in, epoch seconds. */
type SignedInAt = Pick<Session, 'loginTs'>;

/**
 * Seconds a session is kept from its save: the idle period, cut short by the absolute end counted from
 * the sign-in (`loginTs`, which a new sign-in moves on). ASVS 7.3.2 and NIST SP 800-63B §5.1: a
 * session used every day must still end, so the person proves the password again. A session nobody
 * has signed in to yet only idles. oidc-provider reads the time from Date, as this does.
 */
export function sessionTtl({ idleSeconds, absoluteSeconds }: SessionLifetimes) {
  return (_ctx: KoaContextWithOIDC | undefined, session: SignedInAt): number => {
    if (session.loginTs === undefined) return idleSeconds;
    const left = session.loginTs + absoluteSeconds - Math.floor(Date.now() / 1000);
    // The provider wants a positive whole number; a session past its end is not found (pastAbsoluteEnd).
    return Math.max(1, Math.min(idleSeconds, left));
  };
}

/**
 * Whether a stored session has outlived its absolute end: one kept past it (the ttl rounds to a whole
 * second, and a session saved before this rule existed idled with no end) is not found, so the
 * browser signs in again.
 */
export function pastAbsoluteEnd(
  { absoluteSeconds }: SessionLifetimes,
  payload: { loginTs?: unknown },
): boolean {
  // Stryker disable next-line ConditionalExpression: without a number the sum below is NaN, which no time reaches; the guard is for the type
  if (typeof payload.loginTs !== 'number') return false;
  return Date.now() >= (payload.loginTs + absoluteSeconds) * 1000;
}
