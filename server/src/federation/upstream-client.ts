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
 */
export async function upstreamConfiguration(provider: UpstreamProviderRecord): Promise<oidc.Configuration> {
  const insecure = isLoopbackHttpIssuer(provider.issuer);
  return traced('upstream.discovery', upstreamSpan(provider), () =>
    oidc.discovery(
      new URL(provider.issuer),
      provider.clientId,
      provider.clientSecret,
      oidc.ClientSecretBasic(provider.clientSecret),
      // Plain http only ever reaches a loopback issuer (issuer-url.ts isAcceptableIssuer).
      insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
    ),
  );
}
