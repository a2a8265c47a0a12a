import type { KoaContextWithOIDC, RefreshToken } from 'oidc-provider';
import type { Config } from '../config.ts';

/** How long refresh tokens work (REFRESH_TOKEN_IDLE_DAYS, REFRESH_TOKEN_ABSOLUTE_DAYS), in seconds. */
export type RefreshTokenLifetimes = Config['refreshTokenLifetimes'];

/**
 * A refresh token's lifetime: the idle period, cut short by the absolute end counted from the
 * sign-in that began the chain (`iiat`, which every rotated token carries on). Every use rotates the
 * token (provider.ts), so each use starts a new idle period, and none outlives the absolute end.
 * oidc-provider reads the time from Date, as this does.
 */
export function refreshTokenTtl({ idleSeconds, absoluteSeconds }: RefreshTokenLifetimes) {
  return (_ctx: KoaContextWithOIDC | undefined, token: RefreshToken): number => {
    const now = Math.floor(Date.now() / 1000);
    const begun = token.iiat ?? now;
    const left = begun + absoluteSeconds - now;
    // The provider wants a positive whole number; a token is only issued from a live one, so `left`
    // is at least a second unless the clock jumped.
    return Math.max(1, Math.min(idleSeconds, left));
  };
}
