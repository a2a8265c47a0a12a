import * as oidc from 'openid-client';
import { type Account, markEmailVerified } from '../accounts/account-repository.ts';
import { emailDomain } from '../accounts/identifiers.ts';
import { traced } from '../tracing/spans.ts';
import { findProviderRecord } from './federation-repository.ts';
import { upstreamProviderIdForDomain } from './home-realm.ts';
import { type LinkResult, linkOrProvisionAccount } from './link-account.ts';
import { authenticationAgeRefusal, type Reauthentication } from './reauthentication.ts';
import type { FederationDeps, FederationRefusal } from './start-upstream-sign-in.ts';
import { upstreamConfiguration, upstreamSpan } from './upstream-client.ts';
import { UPSTREAM_FLOW_TTL_SECONDS, type UpstreamFlow } from './upstream-flow.ts';
import { type PersonClaims, personClaims } from './upstream-person.ts';

export type CompleteResult =
  | {
      readonly ok: true;
      /** The account signed in, as linked: the sign-in's result is bound to its password (sign-in-result.ts). */
      readonly account: Account;
      readonly providerId: string;
      /** The person's identifier at that provider (the ID token's sub), to which the account is linked. */
      readonly subject: string;
      readonly how: Extract<LinkResult, { ok: true }>['how'];
      /** When the provider authenticated the person (the ID token's auth_time, epoch seconds), if it says. */
      readonly authTime: number | null;
    }
  | {
      readonly ok: false;
      readonly reason: FederationRefusal;
      readonly providerId: string;
      /** What the provider or the check said, for the operator: an OAuth error code or a check's name. */
      readonly cause?: string;
    };

/**
 * Why the provider's answer was refused, in a word an operator can look up: the OAuth error code the
 * provider answered in its body or its challenge (RFC 6749 §5.2: `invalid_client` for a wrong secret,
 * `invalid_grant` …), the
 * code of the check openid-client made (`OAUTH_JWT_CLAIM_COMPARISON_FAILED` …), else the error's name.
 */
function refusalCause(error: unknown): string {
  if (error instanceof oidc.ResponseBodyError) return printableWord(error.error);
  // A 401 with a challenge (RFC 6750 §3, as a wrong client secret is often answered): its error.
  if (error instanceof oidc.WWWAuthenticateChallengeError) {
    const challenged = error.cause.find((challenge) => typeof challenge.parameters.error === 'string');
    if (challenged?.parameters.error) return printableWord(challenged.parameters.error);
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return printableWord(code);
  return printableWord(error instanceof Error ? error.name : '');
}

/** Printable ASCII only, at most 64 characters: it goes into the audit log as it is. */
function printableWord(text: string): string {
  return text.replace(/[^\x21-\x7e]/g, '').slice(0, 64) || 'unknown';
}

/**
 * The callback's work (DESIGN §1): the authorization response is checked against the flow this browser
 * started (state), the code is exchanged with the PKCE verifier, and openid-client validates the ID
 * token (issuer, audience, expiry, nonce). The authentication must be as recent as the relying party
 * `asked` (prompt=login, max_age). Only then is the local account linked or provisioned.
 * `callbackUrl` is the URL the provider redirected to, query included.
 */
export async function completeUpstreamSignIn(
  deps: FederationDeps,
  flow: UpstreamFlow,
  callbackUrl: URL,
  asked: Reauthentication,
): Promise<CompleteResult> {
  const { providerId } = flow;
  const refuse = (reason: FederationRefusal, cause?: string) => ({
    ok: false as const,
    reason,
    providerId,
    ...(cause === undefined ? {} : { cause }),
  });
  const response = callbackUrl.searchParams;
  // The provider's own error code (access_denied when the person declined), for the operator.
  // The flow was found by the answer's state (http/routes/federation.ts), and openid-client compares
  // the two again (expectedState).
  if (response.has('error')) return refuse('upstream_error', printableWord(response.get('error') ?? ''));
  const provider = await findProviderRecord(deps.db, providerId);
  if (!provider) return refuse('unknown_provider');

  let config: oidc.Configuration;
  try {
    config = await upstreamConfiguration(provider);
  } catch {
    return refuse('upstream_unreachable');
  }
  let accessToken: string;
  let idToken: oidc.IDToken | undefined;
  try {
    const tokens = await traced('upstream.token', upstreamSpan(provider), () =>
      oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      }),
    );
    accessToken = tokens.access_token;
    idToken = tokens.claims();
  } catch (error) {
    return refuse('token_invalid', refusalCause(error));
  }
  if (!idToken) return refuse('token_invalid');
  const sentAt = new Date(flow.expiresAt - UPSTREAM_FLOW_TTL_SECONDS * 1000);
  const tooOld = authenticationAgeRefusal(asked, idToken.auth_time, await deps.clock.now(), sentAt);
  if (tooOld !== null) return refuse(tooOld);

  const claims = await personClaims(provider, config, accessToken, idToken);
  if (claims === null) return refuse('userinfo_failed');
  // Only an address the provider vouches for may pick a local account (the literal true, not "true").
  if (claims.email_verified !== true || typeof claims.email !== 'string') return refuse('email_unverified');
  const email = claims.email;
  if ((await upstreamProviderIdForDomain(deps.db, emailDomain(email))) !== provider.id) {
    return refuse('domain_not_bound');
  }
  const linked = await linkOrProvisionAccount(deps, {
    providerId,
    subject: idToken.sub,
    email,
    displayName: displayNameOf(claims, email),
  });
  if (!linked.ok) return refuse(linked.reason);
  // The provider vouches for the account's address: the one it sent now (email_verified, checked
  // above), or, when another account held that one, the one it sent when it linked the account.
  // Written once: a returning person's address is verified already (a new one by its change).
  // Stryker disable next-line ConditionalExpression: a second write keeps the time already set (markEmailVerified); the check only spares the statement
  if (linked.account.emailVerifiedAt === null) await markEmailVerified(deps.db, linked.account.id);
  deps.signIns.signedIn('federated');
  const authTime = typeof idToken.auth_time === 'number' ? idToken.auth_time : null;
  return { ok: true, account: linked.account, providerId, subject: idToken.sub, how: linked.how, authTime };
}

/** The name claim, else given and family name, else the address's local part: never empty. */
function displayNameOf(claims: PersonClaims, email: string): string {
  const text = (value: unknown) => (typeof value === 'string' ? value.replace(/\p{Cc}/gu, ' ').trim() : '');
  const name = text(claims.name) || [text(claims.given_name), text(claims.family_name)].join(' ').trim();
  return (name || email.slice(0, email.lastIndexOf('@'))).slice(0, 200);
}
