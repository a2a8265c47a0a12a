import * as oidc from 'openid-client';
import { emailDomain } from '../accounts/identifiers.ts';
import type { SignInMeter } from '../metrics/meters.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { findProviderRecord } from './federation-repository.ts';
import { upstreamProviderIdForDomain } from './home-realm.ts';
import { type Reauthentication, upstreamReauthenticationParameters } from './reauthentication.ts';
import type { UpstreamConfigurations } from './upstream-client.ts';
import { UPSTREAM_FLOW_TTL_SECONDS, type UpstreamFlow } from './upstream-flow.ts';

export interface FederationDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** PUBLIC_URL/api/ExternalIdentityProviderCallback, registered at every upstream provider. */
  readonly callbackUrl: string;
  /** Counts each completed upstream sign-in (metrics). */
  readonly signIns: SignInMeter;
  /** Each provider's discovery document and keys, kept for a while (upstream-client.ts). */
  readonly configurations: UpstreamConfigurations;
}

/** Why a federation step was refused; recorded in the audit log, never shown in detail to the browser. */
export type FederationRefusal =
  | 'bad_request'
  | 'interaction_gone'
  | 'unknown_provider'
  | 'hint_not_bound'
  | 'upstream_unreachable'
  | 'no_flow'
  | 'upstream_error'
  | 'token_invalid'
  | 'userinfo_failed'
  | 'auth_time_missing'
  | 'authentication_too_old'
  | 'email_unverified'
  | 'domain_not_bound'
  | 'account_disabled'
  | 'linked_elsewhere';

export type StartResult =
  | { readonly ok: true; readonly url: URL; readonly flow: UpstreamFlow }
  | { readonly ok: false; readonly reason: FederationRefusal };

/**
 * Starts authorization code + PKCE at the provider (DESIGN §1): fresh state, nonce and code_verifier,
 * kept by the caller for the callback, and the e-mail passed on as login_hint. A hint must belong to a
 * domain bound to this provider, so a crafted link cannot send one organisation's people to another.
 * The re-authentication the relying party asked for (prompt=login, max_age) is asked upstream too:
 * it is the organisation's provider that authenticates the person.
 */
export async function startUpstreamSignIn(
  deps: FederationDeps,
  input: {
    providerId: string;
    loginHint: string | undefined;
    returnUrl: string;
    reauthentication: Reauthentication;
  },
): Promise<StartResult> {
  const provider = await findProviderRecord(deps.db, input.providerId);
  if (!provider) return { ok: false, reason: 'unknown_provider' };
  if (input.loginHint !== undefined) {
    const bound = await upstreamProviderIdForDomain(deps.db, emailDomain(input.loginHint));
    if (bound !== provider.id) return { ok: false, reason: 'hint_not_bound' };
  }
  let config: oidc.Configuration;
  try {
    config = await deps.configurations(provider);
  } catch {
    return { ok: false, reason: 'upstream_unreachable' };
  }
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const flow: UpstreamFlow = {
    providerId: provider.id,
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    codeVerifier,
    returnUrl: input.returnUrl,
    expiresAt: (await deps.clock.now()).getTime() + UPSTREAM_FLOW_TTL_SECONDS * 1000,
  };
  const parameters: Record<string, string> = {
    redirect_uri: deps.callbackUrl,
    scope: provider.scopes.join(' '),
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    ...upstreamReauthenticationParameters(input.reauthentication),
  };
  if (input.loginHint !== undefined) parameters.login_hint = input.loginHint.trim();
  return { ok: true, url: oidc.buildAuthorizationUrl(config, parameters), flow };
}
