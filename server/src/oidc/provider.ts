import { ADMIN_SCOPE } from '@keycard/contract';
import Provider, { type Configuration, errors, type JWK, type KoaContextWithOIDC } from 'oidc-provider';
import { findAccountById } from '../accounts/account-repository.ts';
import type { Config } from '../config.ts';
import { cookiePolicy } from '../cookie-policy.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { allowsBrowserOrigin } from './browser-clients.ts';
import type { ClientCache } from './client-cache.ts';
import { cookieSigner } from './cookie-signer.ts';
import { honestDiscovery } from './discovery.ts';
import { allowFormActionToClient } from './form-action.ts';
import { tokenEndpointIdTokenClaims } from './id-token-claims.ts';
import { firstPartyPolicy } from './interaction-policy.ts';
import { interactionUrl } from './interaction-url.ts';
import type { KeySchedule } from './key-schedule.ts';
import { signingAlgorithmsOf } from './keys.ts';
import {
  endSessionLeftForAnotherAccount,
  type LogoutQueue,
  screenEndSessionRequest,
  showSignedOut,
  startLogout,
} from './logout.ts';
import { answerOutages, errorPageFor, isPersonFacing, noteOutage } from './outage.ts';
import { refreshTokenTtl } from './refresh-tokens.ts';
import { logRefusals, noteRefusal, type RefusalLog } from './refusals.ts';
import { withRequestReads } from './request-reads.ts';
import { grantResourceScopes, introspectionPolicy, resourceServerInfo } from './resource-servers.ts';
import { sessionTtl } from './session-lifetime.ts';
import { forgetOutdatedSignIn } from './sign-in-result.ts';
import { databaseAdapter } from './storage-adapter.ts';

/** Where the provider is mounted; the issuer is PUBLIC_URL + this (DESIGN §1). */
export const OIDC_MOUNT = '/oidc';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ProviderKeys {
  /** The published signing keys, those that sign first (key-schedule.ts). */
  schedule: KeySchedule;
  /** Keys for oidc-provider's signed cookies; the first signs. */
  cookieKeys: readonly string[];
}

export interface ProviderDeps {
  config: Config;
  db: Db;
  keys: ProviderKeys;
  /** What the stored sessions, interactions and tokens expire by (the database's clock). */
  clock: Clock;
  /** Client registrations kept across requests (client-cache.ts); absent: read at each request. */
  clientCache?: ClientCache | undefined;
  /** Where refused protocol requests are written, one line each (refusals.ts). */
  log: RefusalLog;
  /** Where the logout tokens of a session the provider ends are queued (logout.ts). */
  logouts: LogoutQueue;
}

type Grant = InstanceType<Provider['Grant']>;

/**
 * Every client is one of the provider's own products, so there is no consent screen: the grant is
 * created (or widened to what is asked now) without asking (DESIGN §1). `widen` adds what else the
 * request may be granted (resource scopes) before it is saved. The benchmark's floor uses it too.
 */
export function firstPartyGrantLoader(widen: (ctx: KoaContextWithOIDC, grant: Grant) => Promise<void>) {
  return async (ctx: KoaContextWithOIDC) => {
    const { client, session } = ctx.oidc;
    if (!client || !session?.accountId) return undefined;
    const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
    const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
    const grant =
      existing ?? new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
    grant.addOIDCScope([...ctx.oidc.requestParamScopes].join(' '));
    await widen(ctx, grant);
    await grant.save();
    return grant;
  };
}

function loadFirstPartyGrant(config: Config, db: Db) {
  return firstPartyGrantLoader((ctx, grant) =>
    grantResourceScopes({ db, configured: config.resourceServers }, ctx, grant),
  );
}

/** The algorithms the keys signing now make, the default first (keys.ts). */
function signingAlgorithmsNow(schedule: KeySchedule) {
  return signingAlgorithmsOf(schedule.keys.filter((key) => key.state === 'current').map((key) => key.jwk));
}

/**
 * The signing algorithms follow the keys that sign now: a client registering none gets the first
 * (RS256 with an RSA key, else ES256, else EdDSA), and none can register one no key signs with.
 * oidc-provider signs with the first published key that fits, so the signing keys come first and the
 * next and retired ones after them are published for verification only.
 */
function signingConfiguration(schedule: KeySchedule) {
  const algorithms = signingAlgorithmsNow(schedule);
  const [preferred] = algorithms;
  // config-fields.ts admits no key set without a key that signs: this is a wiring bug.
  if (preferred === undefined) throw new Error('no signing key signs any supported algorithm');
  return {
    jwks: { keys: schedule.keys.map((key) => ({ ...key.jwk }) as JWK) },
    enabledJWA: {
      idTokenSigningAlgValues: algorithms,
      userinfoSigningAlgValues: algorithms,
      introspectionSigningAlgValues: algorithms,
      authorizationSigningAlgValues: algorithms,
    },
    clientDefaults: { id_token_signed_response_alg: preferred },
  } satisfies Configuration;
}

type TokenPolicy = (
  ctx: KoaContextWithOIDC,
  client: { clientId: string; clientAuthMethod?: string | undefined },
  token: { clientId?: string | undefined },
) => boolean;

/**
 * RFC 7009 §2.1: only the client a token was issued to may revoke it. A confidential client is told so
 * (invalid_request); a public one, which anybody can name, gets the same 200 as a revoked token.
 */
const revokeOwnTokens: TokenPolicy = (_ctx, client, token) => {
  if (token.clientId === client.clientId) return true;
  if (client.clientAuthMethod === 'none') return false;
  throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
};

export function providerConfiguration({ config, db, keys, clock, clientCache }: ProviderDeps): Configuration {
  const cookies = cookiePolicy(config.publicUrl).provider;
  const { absoluteSeconds } = config.refreshTokenLifetimes;
  return {
    adapter: databaseAdapter(db, clock, { clients: clientCache, sessionLifetimes: config.sessionLifetimes }),
    ...signingConfiguration(keys.schedule),
    cookies: {
      keys: cookieSigner(keys.cookieKeys),
      names: { ...cookies.names },
      long: { ...cookies.long },
      short: { ...cookies.short },
    },
    async findAccount(ctx, sub) {
      if (!UUID.test(sub)) return undefined;
      const account = await findAccountById(db, sub);
      if (!account || account.disabledAt) return undefined;
      // A resumed sign-in whose password has changed since counts as none: sign in again.
      if (forgetOutdatedSignIn(ctx, account)) return undefined;
      return {
        accountId: account.id,
        claims: async (use) => ({
          sub: account.id,
          email: account.email,
          email_verified: account.emailVerifiedAt !== null,
          name: account.displayName,
          given_name: account.firstName,
          ...(use === 'id_token' ? await tokenEndpointIdTokenClaims(ctx) : {}),
        }),
      };
    },
    // sid and at_hash: see id-token-claims.ts; claims() answers them for ID tokens only.
    claims: {
      openid: ['sub', 'sid', 'at_hash'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name'],
    },
    conformIdTokenClaims: false,
    extraClientMetadata: { properties: ['product_name', 'require_pkce', 'access_token_format'] },
    interactions: { url: interactionUrl(config, db), policy: firstPartyPolicy() },
    loadExistingGrant: loadFirstPartyGrant(config, db),
    // PKCE: a public client has nothing else to prove the code is its own (RFC 9700 §2.1.1); a
    // confidential client's is checked when it sends one, and required when it registered so.
    pkce: {
      required: (_ctx, client) =>
        client.clientAuthMethod === 'none' || client.metadata().require_pkce === true,
    },
    // Every use of a refresh token replaces it; a replaced one used again revokes its whole grant
    // (oidc-provider's reuse detection, RFC 9700 §4.14.2).
    rotateRefreshToken: true,
    responseTypes: ['code'],
    clientBasedCORS: allowsBrowserOrigin,
    // The admin API's scope is declared so the token endpoint refuses it (invalid_scope) to every
    // client whose registered scope lacks it: oidc-provider passes undeclared scopes through unchecked.
    scopes: ['openid', 'offline_access', ADMIN_SCOPE],
    features: {
      // Admin API tokens (DESIGN §1 Provisioning). Without resource indicators they are opaque and
      // stored by the database adapter, so the API checks them in-process by lookup (http/admin-api/):
      // no introspection round trip, revocation and expiry take effect at once, on every instance.
      clientCredentials: { enabled: true },
      devInteractions: { enabled: false },
      // Back-Channel Logout 1.0: the metadata and discovery; the tokens are queued when a session ends
      // (logout.ts) and posted by backchannel/backchannel-worker.ts, never during the person's sign-out.
      backchannelLogout: { enabled: true },
      // RFC 7662 and RFC 7009, for registered clients authenticating as registered (their token
      // endpoint method), each about its own tokens; a registered resource server's introspection
      // client also about the opaque tokens issued for it (resource-servers.ts). JWT access tokens
      // are not stored: a resource server checks them itself, and they end with their short TTL.
      introspection: { enabled: true, allowedPolicy: introspectionPolicy(db) },
      revocation: { enabled: true, allowedPolicy: revokeOwnTokens },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: resourceServerInfo({
          db,
          configured: config.resourceServers,
          algorithms: signingAlgorithmsNow(keys.schedule),
        }),
        // No resource asked for: an opaque token (userinfo). One granted at authorization is used at
        // the token endpoint even when the request there does not repeat it.
        defaultResource: (_ctx, _client, oneOf) => oneOf,
        useGrantedResource: () => true,
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx) => startLogout(db, ctx),
        postLogoutSuccessSource: (ctx) => showSignedOut(db, ctx),
      },
    },
    ttl: {
      Session: sessionTtl(config.sessionLifetimes),
      Interaction: 60 * 60,
      // A grant lives as long as the longest refresh token issued under it may.
      Grant: Math.max(14 * 24 * 60 * 60, absoluteSeconds),
      // A token for a resource server lives that resource's TTL (registered, or RESOURCE_SERVERS).
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 60 * 60,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 10 * 60,
      IdToken: 60 * 60,
      AuthorizationCode: 60,
      RefreshToken: refreshTokenTtl(config.refreshTokenLifetimes),
    },
    // Protocol errors shown to a person land on the SPA's error page, never on a stack or raw JSON;
    // the page shows the reference of the request's log line (refusals.ts), and says when the service
    // is temporarily unavailable (outage.ts).
    // The provider asks for a page whenever the caller prefers HTML, on every endpoint; a client's
    // call (token, userinfo, introspection, revocation …) answers its JSON error with its status
    // whatever it accepts (RFC 6749 §5.2, RFC 6750 §3), as a Java client's default Accept would
    // otherwise get a redirect to a page.
    async renderError(ctx, out, error) {
      if (!isPersonFacing(ctx.path)) {
        ctx.body = out;
        return;
      }
      const reference = noteRefusal(ctx, error, 'error_page');
      ctx.status = 303;
      ctx.redirect(errorPageFor(reference, error));
    },
  };
}

/**
 * The provider posts logout tokens itself in one place: its end-session confirmation, which its
 * resume sends the browser through when another account signs in there. It would post once, inside
 * the person's request, and refuse the private networks BACKCHANNEL_PRIVATE_NETWORKS allows. Its
 * clients' post does nothing here: endSessionLeftForAnotherAccount (logout.ts) queues the tokens for
 * the worker (backchannel/), as every other end of a session does.
 */
function postNoLogoutTokens(provider: Provider): void {
  Reflect.set(provider.Client.prototype, 'backchannelLogout', async () => undefined);
}

export function createProvider(deps: ProviderDeps): Provider {
  const provider = new Provider(`${deps.config.publicUrl}${OIDC_MOUNT}`, providerConfiguration(deps));
  provider.proxy = deps.config.trustedProxies > 0;
  provider.use((_ctx, next) => withRequestReads(next));
  // Refusals the provider sends to the client's redirect_uri (RFC 6749 §4.1.2.1, with RFC 9207 iss)
  // are logged like those shown on the error page, so the integrating developer finds the reason.
  provider.use(logRefusals(deps.log));
  provider.use(answerOutages());
  provider.on('server_error', noteOutage);
  provider.on('authorization.error', (ctx, error) => noteRefusal(ctx, error));
  provider.on('end_session.error', (ctx, error) => noteRefusal(ctx, error));
  provider.on('server_error', (ctx, error) => noteRefusal(ctx, error));
  provider.use(screenEndSessionRequest(provider));
  postNoLogoutTokens(provider);
  provider.use(endSessionLeftForAnotherAccount(provider, deps.db, deps.logouts));
  provider.use(honestDiscovery);
  // Its self-submitting pages allow the one client origin they send the browser to (DESIGN §2 Headers).
  provider.use(allowFormActionToClient);
  // An unknown protocol path answers like every other unknown path of the service (STYLE §2).
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined) return;
    ctx.body = { code: 'not_found', message: 'Not found.' };
    ctx.status = 404; // setting a body makes Koa answer 200
  });
  return provider;
}
