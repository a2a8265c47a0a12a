import * as oidc from 'openid-client';
import { type Account, markEmailVerified } from '../accounts/account-repository.ts';
import { emailDomain } from '../accounts/identifiers.ts';
import { traced } from '../tracing/spans.ts';
import { findProviderRecord } from './federation-repository.ts';
import { upstreamProviderIdForDomain } from './home-realm.ts';
import { type LinkResult, linkOrProvisionAccount } from './link-account.ts';
import { authenticationAgeRefusal, type Reauthentication } from './reauthentication.ts';
import type { FederationDeps, FederationRefusal } from './start-upstream-sign-in.ts';
import { upstreamSpan } from './upstream-client.ts';
import { printableWord, upstreamFailure } from './upstream-failure.ts';
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
    config = await deps.configurations(provider);
  } catch (error) {
    return refuse('upstream_unreachable', upstreamFailure(error).cause);
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
    // The token endpoint or the key set the ID token is checked with did not answer: the provider
    // is down or out of reach, which the token is not to blame for.
    const failure = upstreamFailure(error);
    return refuse(failure.unanswered ? 'upstream_unreachable' : 'token_invalid', failure.cause);
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
