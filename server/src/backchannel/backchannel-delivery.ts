import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type Provider from 'oidc-provider';
import { Agent, buildConnector, request } from 'undici';
import type { ReachableNetworks } from '../config-fields.ts';
import { mayReach, reachableLookup, UnreachableAddress } from './reachable-networks.ts';

/** The event a logout token carries (OpenID Connect Back-Channel Logout 1.0 §2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** How long one post may take; a relying party slower than this is tried again later. */
export const POST_TIMEOUT_MS = 5_000;

/**
 * The URI as the log and last_error may show it: without a query or user information, where a relying
 * party may have put a key of its own.
 */
function withoutSecrets(uri: string): string {
  const url = new URL(uri);
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** The relying party answered, but not with 200 or 204: worth another attempt later. */
export class LogoutPostRefused extends Error {
  constructor(
    readonly status: number,
    uri: string,
  ) {
    super(`${withoutSecrets(uri)} answered ${status}, not 200 or 204`);
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

/** Posts logout tokens; `close` ends its connections. */
export interface LogoutSender {
  post(provider: Provider, delivery: LogoutDelivery, signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/**
 * Posts logout tokens to the clients' registered back-channel logout URIs (§2.5), only to public
 * addresses and to `networks` (reachable-networks.ts): a URI an admin client wrote must not make the
 * service send requests inside its own network (a cloud's metadata service, a database's HTTP port).
 * The check is on the address connected to, so a name cannot get round it by what it resolves to.
 * Redirects are not followed (§2.8).
 */
export function createLogoutSender(networks: ReachableNetworks): LogoutSender {
  const connect = buildConnector({ timeout: POST_TIMEOUT_MS, lookup: reachableLookup(networks) });
  const dispatcher = new Agent({
    connect(options, callback) {
      // An address in the URL is connected to without a lookup: it is checked here instead.
      const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(host) !== 0 && !mayReach(host, networks)) callback(new UnreachableAddress(host, host), null);
      else connect(options, callback);
    },
  });
  return {
    async post(provider, delivery, signal) {
      const client = await provider.Client.find(delivery.clientId);
      const uri = client?.backchannelLogoutUri;
      if (!client || uri === undefined) throw new NoLogoutListener(delivery.clientId);
      const response = await request(uri, {
        method: 'POST',
        dispatcher,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logout_token: await logoutToken(provider, client, delivery) }).toString(),
        signal: AbortSignal.any([signal, AbortSignal.timeout(POST_TIMEOUT_MS)]),
      });
      await response.body.dump();
      if (response.statusCode !== 200 && response.statusCode !== 204) {
        throw new LogoutPostRefused(response.statusCode, uri);
      }
    },
    close: () => dispatcher.destroy(),
  };
}
