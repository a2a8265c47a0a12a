import * as oidc from 'openid-client';
import { traced } from '../tracing/spans.ts';
import type { UpstreamProviderRecord } from './federation-repository.ts';
import { upstreamSpan } from './upstream-client.ts';

/** The claims a sign-in reads of the person: the address, whether it is verified, the name. */
export type PersonClaims = Readonly<Record<string, unknown>>;

/**
 * Who the provider says the person is. Claims the email and profile scopes ask for may be returned
 * from the UserInfo endpoint only (OpenID Connect Core §5.4; oidc-provider's default, Okta's too), so
 * an ID token without the address or its email_verified sends the sign-in there, and the UserInfo
 * answer, the whole set of the granted claims, is used instead. openid-client refuses an answer whose
 * `sub` is not the ID token's (§5.3.2): it would be about someone else. Null when UserInfo fails.
 */
export async function personClaims(
  provider: UpstreamProviderRecord,
  config: oidc.Configuration,
  accessToken: string,
  idToken: oidc.IDToken,
): Promise<PersonClaims | null> {
  if (typeof idToken.email === 'string' && idToken.email_verified !== undefined) return idToken;
  try {
    return await traced('upstream.userinfo', upstreamSpan(provider), () =>
      oidc.fetchUserInfo(config, accessToken, idToken.sub),
    );
  } catch {
    return null;
  }
}
