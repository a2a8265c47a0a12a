import * as oidc from 'openid-client';
import { type SpanOptions, traced } from '../tracing/spans.ts';
import type { UpstreamProviderRecord } from './federation-repository.ts';
import { isLoopbackHttpIssuer } from './issuer-url.ts';

/** A call to a provider as a span shows it: which provider and host, nothing of the person or the flow. */
export function upstreamSpan(provider: UpstreamProviderRecord): SpanOptions {
  return {
    client: true,
    attributes: {
      'server.address': new URL(provider.issuer).hostname,
      'keycard.upstream.provider_id': provider.id,
    },
  };
}

/**
 * The openid-client configuration of a provider, from its discovery document. openid-client checks
 * that the document's issuer is exactly the registered one, so a provider cannot speak for another.
 * It also checks the signature of every ID token (and signed UserInfo answer) against the keys the
 * provider publishes at its `jwks_uri` (ASVS 6.8.2): TLS alone would let OpenID Connect skip that for
 * a token fetched from the token endpoint, but a checked signature is what makes the token the
 * provider's statement, whatever sat between the two.
 */
export async function upstreamConfiguration(provider: UpstreamProviderRecord): Promise<oidc.Configuration> {
  const insecure = isLoopbackHttpIssuer(provider.issuer);
  return traced('upstream.discovery', upstreamSpan(provider), () =>
    oidc.discovery(
      new URL(provider.issuer),
      provider.clientId,
      provider.clientSecret,
      oidc.ClientSecretBasic(provider.clientSecret),
      {
        execute: [
          oidc.enableNonRepudiationChecks,
          // Plain http only ever reaches a loopback issuer (issuer-url.ts isAcceptableIssuer).
          ...(insecure ? [oidc.allowInsecureRequests] : []),
        ],
      },
    ),
  );
}
