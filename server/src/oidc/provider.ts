import { ADMIN_SCOPE } from '@keycard/contract';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { findAccountById } from '../accounts/account-repository.ts';
import type { Config } from '../config.ts';
import { cookiePolicy } from '../cookie-policy.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { honestDiscovery } from './discovery.ts';
import { firstPartyPolicy } from './interaction-policy.ts';
import type { ProviderKeys } from './keys.ts';
import { dropUnregisteredPostLogoutUri, startLogout } from './logout.ts';
import { refreshTokenTtl } from './refresh-tokens.ts';
import { signingAlgorithmsOf } from './signing-algorithms.ts';
import { databaseAdapter } from './storage-adapter.ts';

/** Where the provider is mounted; the issuer is PUBLIC_URL + this (DESIGN §1). */
export const OIDC_MOUNT = '/oidc';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ProviderDeps {
  config: Config;
  db: Db;
  keys: ProviderKeys;
  /** What the stored sessions, interactions and tokens expire by (the database's clock). */
  clock: Clock;
}

/** The client's product name; for a client without one, the product's own name (SITE_FILE). */
function productNameOf(ctx: KoaContextWithOIDC, config: Config): string {
  const name = ctx.oidc.client?.metadata().product_name;
  return typeof name === 'string' && name !== ''
    ? name
    : `${config.site.productNamePart1}${config.site.productNamePart2}`;
}

/**
 * The interaction URL is the SPA's sign-in page; its ReturnUrl is the provider's local resume path
 * carrying the client's product name (DESIGN §1). The path is percent-encoded whole, so the page's
 * query string holds no '&' (SPEC §3).
 */
function interactionUrl(config: Config) {
  return (ctx: KoaContextWithOIDC, interaction: { returnTo: string }): string => {
    const resume = new URL(interaction.returnTo);
    resume.search = new URLSearchParams({ product: productNameOf(ctx, config) }).toString();
    return `/?ReturnUrl=${encodeURIComponent(resume.pathname + resume.search)}`;
  };
}

/**
 * Every client is one of the provider's own products, so there is no consent screen: the grant is
 * created (or widened to what is asked now) without asking (DESIGN §1).
 */
async function loadFirstPartyGrant(ctx: KoaContextWithOIDC) {
  const { client, session } = ctx.oidc;
  if (!client || !session?.accountId) return undefined;
  const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
  const grant =
    existing ?? new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
  grant.addOIDCScope([...ctx.oidc.requestParamScopes].join(' '));
  await grant.save();
  return grant;
}

export function providerConfiguration({ config, db, keys, clock }: ProviderDeps): Configuration {
  const cookies = cookiePolicy(config.publicUrl).provider;
  const { absoluteSeconds } = config.refreshTokenLifetimes;
  return {
    adapter: databaseAdapter(db, clock),
    jwks: keys.jwks,
    cookies: {
      keys: keys.cookieKeys,
      names: { ...cookies.names },
      long: { ...cookies.long },
      short: { ...cookies.short },
    },
    async findAccount(_ctx, sub) {
      if (!UUID.test(sub)) return undefined;
      const account = await findAccountById(db, sub);
      if (!account || account.disabledAt) return undefined;
      return {
        accountId: account.id,
        claims: () => ({
          sub: account.id,
          email: account.email,
          email_verified: true,
          name: account.displayName,
          given_name: account.firstName,
        }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name'] },
    conformIdTokenClaims: false,
    extraClientMetadata: { properties: ['product_name', 'require_pkce'] },
    // Discovery offers exactly the ID-token algorithms clients may register (client-rules.ts).
    enabledJWA: { idTokenSigningAlgValues: signingAlgorithmsOf(keys.jwks) },
    interactions: { url: interactionUrl(config), policy: firstPartyPolicy() },
    loadExistingGrant: loadFirstPartyGrant,
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
    clientBasedCORS: () => false,
    // The admin API's scope is declared so the token endpoint refuses it (invalid_scope) to every
    // client whose registered scope lacks it: oidc-provider passes undeclared scopes through unchecked.
    scopes: ['openid', 'offline_access', ADMIN_SCOPE],
    features: {
      // Admin API tokens (DESIGN §1 Provisioning). Without resource indicators they are opaque and
      // stored by the database adapter, so the API checks them in-process by lookup (http/admin-api/):
      // no introspection round trip, revocation and expiry take effect at once, on every instance.
      clientCredentials: { enabled: true },
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource: (ctx) => startLogout(db, ctx) },
    },
    ttl: {
      Session: 24 * 60 * 60,
      Interaction: 60 * 60,
      // A grant lives as long as the longest refresh token issued under it may.
      Grant: Math.max(14 * 24 * 60 * 60, absoluteSeconds),
      AccessToken: 60 * 60,
      ClientCredentials: 10 * 60,
      IdToken: 60 * 60,
      AuthorizationCode: 60,
      RefreshToken: refreshTokenTtl(config.refreshTokenLifetimes),
    },
    // Protocol errors shown to a person land on the SPA's error page, never on a stack or raw JSON.
    async renderError(ctx) {
      ctx.status = 303;
      ctx.redirect('/error');
    },
  };
}

export function createProvider(deps: ProviderDeps): Provider {
  const provider = new Provider(`${deps.config.publicUrl}${OIDC_MOUNT}`, providerConfiguration(deps));
  provider.proxy = deps.config.trustProxy;
  provider.use(dropUnregisteredPostLogoutUri(provider));
  provider.use(honestDiscovery);
  // An unknown protocol path answers like every other unknown path of the service (STYLE §2).
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined) return;
    ctx.body = { code: 'not_found', message: 'Not found.' };
    ctx.status = 404; // setting a body makes Koa answer 200
  });
  return provider;
}
