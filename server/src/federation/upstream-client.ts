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
async function upstreamConfiguration(provider: UpstreamProviderRecord): Promise<oidc.Configuration> {
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

/**
 * How long an instance uses a provider's discovery document before it reads it again: 5 minutes, as
 * long as openid-client keeps the key set it fetched with it (a key set older than that is fetched
 * again, and one that lacks a token's key once it is a minute old).
 */
export const UPSTREAM_CONFIGURATION_TTL_MS = 5 * 60_000;

/** The openid-client configuration of a provider, read again once it is too old (upstreamConfigurations). */
export type UpstreamConfigurations = (provider: UpstreamProviderRecord) => Promise<oidc.Configuration>;

/**
 * Each provider's configuration, kept for UPSTREAM_CONFIGURATION_TTL_MS from when it was asked for
 * (`nowMs`, the instance's clock). The redirect upstream and the callback then use one discovery
 * document, and the callbacks the key set fetched for the first of them, instead of fetching both for
 * every sign-in: two requests to the organisation's provider fewer a callback, and the keys' cache,
 * which lives in the configuration, does its work. Kept per provider as registered: a changed issuer,
 * client id or secret (the row is read for every sign-in) is a configuration of its own. Sign-ins at
 * the same moment share one discovery; a failed one is not kept, so the next sign-in asks again. A
 * removed provider's entry stays until the process ends (one per provider ever asked for).
 */
export function upstreamConfigurations(
  nowMs: () => number,
  discover: (provider: UpstreamProviderRecord) => Promise<oidc.Configuration> = upstreamConfiguration,
): UpstreamConfigurations {
  const kept = new Map<
    string,
    { readonly registered: string; readonly at: number; readonly configuration: Promise<oidc.Configuration> }
  >();
  return (provider) => {
    const registered = JSON.stringify([provider.issuer, provider.clientId, provider.clientSecret]);
    const now = nowMs();
    const entry = kept.get(provider.id);
    // Its age counted from when it was asked for; a clock set back makes it too old.
    const young = (at: number) => now >= at && now - at < UPSTREAM_CONFIGURATION_TTL_MS;
    if (entry?.registered === registered && young(entry.at)) return entry.configuration;
    const fresh = { registered, at: now, configuration: discover(provider) };
    kept.set(provider.id, fresh);
    fresh.configuration.catch(() => {
      if (kept.get(provider.id) === fresh) kept.delete(provider.id);
    });
    return fresh.configuration;
  };
}
