import { randomUUID } from 'node:crypto';
import type Provider from 'oidc-provider';

/** The event a logout token carries (OpenID Connect Back-Channel Logout 1.0 §2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** How long one post may take; a relying party slower than this is tried again later. */
export const POST_TIMEOUT_MS = 5_000;

/** The relying party answered, but not with 200 or 204: worth another attempt later. */
export class LogoutPostRefused extends Error {
  constructor(
    readonly status: number,
    uri: string,
  ) {
    super(`${uri} answered ${status}, not 200 or 204`);
    this.name = 'LogoutPostRefused';
  }
}

/** The client is gone or no longer listens: no attempt can succeed, so the token is given up. */
export class NoLogoutListener extends Error {
  constructor(clientId: string) {
    super(`client ${clientId} is not registered for back-channel logout (any more)`);
    this.name = 'NoLogoutListener';
  }
}

export interface LogoutDelivery {
  readonly clientId: string;
  readonly accountId: string;
  readonly sid: string;
}

/**
 * Signs a logout token (§2.4) with the provider's ID-token key for the client: iss, aud, iat, exp
 * (two minutes), a fresh jti per attempt, the event, sub and sid (both, as §2.4 allows, so the
 * relying party can end the one session or every session of the person), and never a nonce (§2.4
 * forbids it). typ is logout+jwt (§2.4, explicit typing).
 */
async function logoutToken(
  provider: Provider,
  client: InstanceType<Provider['Client']>,
  delivery: LogoutDelivery,
) {
  const token = new provider.IdToken({}, { client });
  token.set('sub', delivery.accountId);
  token.set('sid', delivery.sid);
  token.set('events', { [BACKCHANNEL_LOGOUT_EVENT]: {} });
  token.set('jti', randomUUID());
  return token.issue({ use: 'logout' });
}

/**
 * Posts one logout token to the client's registered back-channel logout URI (§2.5). The URI was
 * registered by an administrator, not by the relying party itself, so relying parties on internal
 * addresses are reached (the provider's own sender refuses private addresses, which suits dynamic
 * registration, not this). Redirects are not followed (§2.8).
 */
export async function postLogoutToken(
  provider: Provider,
  delivery: LogoutDelivery,
  signal: AbortSignal,
): Promise<void> {
  const client = await provider.Client.find(delivery.clientId);
  const uri = client?.backchannelLogoutUri;
  if (!client || uri === undefined) throw new NoLogoutListener(delivery.clientId);
  const response = await fetch(uri, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ logout_token: await logoutToken(provider, client, delivery) }),
    signal: AbortSignal.any([signal, AbortSignal.timeout(POST_TIMEOUT_MS)]),
  });
  await response.body?.cancel();
  if (response.status !== 200 && response.status !== 204) throw new LogoutPostRefused(response.status, uri);
}
