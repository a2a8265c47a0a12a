import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * Fastify's trustProxy for TRUST_PROXY's number of proxies. Hop 0 is the peer, hop n the n-th
 * X-Forwarded-For entry from the right; trusting the hops below the count makes the client's address
 * the entry the farthest trusted proxy appended. X-Forwarded-Host and -Proto count once the peer is
 * trusted, their last value, the one the proxy in front set. Not Fastify's `true`, which trusts every
 * hop and so takes the left-most entry, the one a client writes itself; nor its number option, which
 * in Fastify 5.12 trusts no hop at all.
 */
export function proxyTrust(trustedProxies: number): FastifyServerOptions['trustProxy'] {
  // Stryker disable next-line ConditionalExpression: a function trusting no hop decides the same; false spares every request the walk
  if (trustedProxies === 0) return false;
  return (_address: string, hop: number) => hop < trustedProxies;
}

/**
 * The request's headers with one X-Forwarded-For, -Host and -Proto each: the address, host and scheme
 * Fastify took from them. Koa (inside the provider) reads the left-most value of each, which a client
 * may have written, whereas the host check (allowed-hosts.ts) and the per-IP limits saw Fastify's.
 * Fastify reads a single value back as itself, so its own answers do not change either.
 */
export function withForwardingAsDecided(request: FastifyRequest): IncomingHttpHeaders {
  const decided = {
    'x-forwarded-for': request.ip,
    'x-forwarded-host': request.host,
    'x-forwarded-proto': request.protocol,
  };
  const headers = { ...request.raw.headers };
  for (const [name, value] of Object.entries(decided)) {
    // None decided (no Host header, a socket already gone): nor may the provider read a client's.
    // Stryker disable next-line ConditionalExpression: Fastify decides an empty host only for a request without a Host header, which Node's parser and the allowed-hosts check refuse first
    if (value) headers[name] = value;
    else delete headers[name];
  }
  return headers;
}
