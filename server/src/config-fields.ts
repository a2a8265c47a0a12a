import { createPrivateKey } from 'node:crypto';
import { isIP } from 'node:net';
import { RESOURCE_FORBIDDEN_SCOPES } from '@keycard/contract';
import ipaddr from 'ipaddr.js';
import addressparser from 'nodemailer/lib/addressparser';
import { z } from 'zod';
import { POSTGRES_TIME_BOUNDS } from './store/postgres-time-bounds.ts';

/** Field parsers of config.ts. Messages say what a good value looks like and never echo the value. */

export function wholeNumber(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));
}

/** More proxies than this in one chain is a typo, not a deployment. */
const MOST_TRUSTED_PROXIES = 10;

/**
 * TRUST_PROXY: how many proxies in front of the service to believe, as a number. `false` is none,
 * `true` the one directly in front (a load balancer), a whole number that many (2: a CDN before the
 * load balancer). Each appends the address it was reached from to X-Forwarded-For, so the count says
 * which entry, from the right, is the client's; the ones left of it are whatever the client wrote.
 */
export const trustedProxiesSchema = z.string().transform((value, ctx) => {
  const named = value.toLowerCase();
  if (named === 'false') return 0;
  if (named === 'true') return 1;
  if (/^\d{1,2}$/.test(value) && Number(value) <= MOST_TRUSTED_PROXIES) return Number(value);
  ctx.addIssue({
    code: 'custom',
    message: `must be true, false or the number of proxies in front, from 0 to ${MOST_TRUSTED_PROXIES}`,
  });
  return z.NEVER;
});

function hasProtocol(value: string, protocols: readonly string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol.slice(0, -1));
  } catch {
    return false;
  }
}

/** Whether the URL's user name and password decode, as the drivers decode them before connecting. */
function hasDecodableCredentials(value: string): boolean {
  try {
    const { username, password } = new URL(value);
    decodeURIComponent(username);
    decodeURIComponent(password);
    return true;
  } catch {
    return false;
  }
}

export function urlWithProtocol(protocols: readonly string[], description: string) {
  return z
    .string()
    .refine((value) => hasProtocol(value, protocols), { error: `must be ${description}`, abort: true })
    .refine(hasDecodableCredentials, {
      error:
        'has a user name or password that is not percent-encoded: write % as %25 (and @ as %40, : as %3A)',
      abort: true,
    });
}

/** The most a time bound of DATABASE_URL's query may be: PostgreSQL's 32-bit integer. */
const LONGEST_POSTGRES_TIME_BOUND_MS = 2_147_483_647;

/**
 * DATABASE_URL: a postgres:// URL whose time bounds, where it sets any, are whole milliseconds.
 * node-postgres reads them with parseInt and sends no unit, so `30s` would be 30 ms, and `abc` none.
 */
export const databaseUrlSchema = urlWithProtocol(
  ['postgres', 'postgresql'],
  'a postgres:// connection URL',
).superRefine((value, ctx) => {
  const query = new URL(value).searchParams;
  // node-postgres takes a parameter's last value, URLSearchParams.get its first: one value each.
  // The bounds the query may replace (store/postgres-time-bounds.ts).
  const wrong = Object.keys(POSTGRES_TIME_BOUNDS).filter((name) => {
    const bounds = query.getAll(name);
    const [bound] = bounds;
    if (bound === undefined) return false;
    return bounds.length > 1 || !/^\d{1,10}$/.test(bound) || Number(bound) > LONGEST_POSTGRES_TIME_BOUND_MS;
  });
  if (wrong.length === 0) return;
  ctx.addIssue({
    code: 'custom',
    message: `${wrong.join(', ')} must ${wrong.length > 1 ? 'each ' : ''}be given once, a whole number of milliseconds from 0 (none) to ${LONGEST_POSTGRES_TIME_BOUND_MS}, e.g. ${wrong[0]}=30000`,
  });
});

/** OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL: the OTLP encodings the SDK exports with. */
export const otlpProtocol = z.enum(['http/protobuf', 'http/json', 'grpc'], {
  error: 'must be http/protobuf, http/json or grpc',
});

/** An origin only: links, the issuer and redirects are built from it, so a path would be ambiguous. */
export function isHttpOrigin(value: string): boolean {
  if (!hasProtocol(value, ['http', 'https']) || /[?#]/.test(value)) return false;
  const url = new URL(value);
  return url.pathname === '/' && url.username === '' && url.password === '';
}

/**
 * Whether a listening address or host name reaches only this machine: `localhost` (and its
 * subdomains, RFC 6761 §6.3), 127.0.0.0/8 and ::1, IPv4-mapped or bracketed alike.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  // The usual notation only (not 127.1), as networkOf; an address with a zone (::1%lo) is no
  // address of this machine alone.
  if (isIP(name) === 0 || name.includes('%')) return false;
  const parsed = ipaddr.parse(name);
  // IPv4-mapped, also as the URL parser writes it in a redirect URI's host (::ffff:7f00:1 for
  // ::ffff:127.0.0.1): the IPv4 address it carries.
  const address =
    parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
      ? (parsed as ipaddr.IPv6).toIPv4Address()
      : parsed;
  return address.range() === 'loopback';
}

/**
 * The host name of a Host header value (`name`, `name:port`, `[v6]:port`): lower-case, IPs in their
 * normal form, without a final dot; undefined when it is no host at all (a path, user info, garbage).
 */
export function hostNameOf(host: string): string | undefined {
  if (host === '' || /[/?#@\\\s]/.test(host)) return undefined;
  try {
    return new URL(`http://${host}`).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** PUBLIC_HOST_ALIASES: comma-separated host names or IP addresses (IPv6 in brackets), no ports. */
export const hostAliasesSchema = z.string().transform((value, ctx) => {
  const names = value
    .split(',')
    .map((alias) => alias.trim())
    .filter((alias) => alias !== '');
  const hostNames = names.map((alias) => (/:\d*$/.test(alias) ? undefined : hostNameOf(alias)));
  if (hostNames.some((name) => name === undefined)) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be comma-separated host names or IP addresses without scheme, port or path',
    });
    return z.NEVER;
  }
  return hostNames as string[];
});

/**
 * Networks outside the public internet that the service may still send requests to (for
 * BACKCHANNEL_PRIVATE_NETWORKS): each an address and its prefix length.
 */
export type ReachableNetworks = readonly (readonly [ipaddr.IPv4 | ipaddr.IPv6, number])[];

/** `10.0.0.0/8`, `fd00::/8` or a single address, in the usual notation only (not `10/8` or `0x0a…`). */
function networkOf(written: string): readonly [ipaddr.IPv4 | ipaddr.IPv6, number] | undefined {
  const [address = '', prefix, ...rest] = written.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return undefined;
  const most = family === 4 ? 32 : 128;
  if (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > most)) return undefined;
  const parsed = ipaddr.parse(address);
  const bits = prefix === undefined ? most : Number(prefix);
  // An IPv4 network written as IPv6 (::ffff:10.0.0.0/104) is that IPv4 network, as addresses are
  // compared (backchannel/reachable-networks.ts); one wider than the mapped range is no network of it.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return bits < 96 ? undefined : [(parsed as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [parsed, bits];
}

/** Comma-separated networks (`10.0.0.0/8`, `fd00::/8`) or single addresses; `none` for none. */
export const networksSchema = z.string().transform((value, ctx): ReachableNetworks => {
  if (value.toLowerCase() === 'none') return [];
  const networks: (readonly [ipaddr.IPv4 | ipaddr.IPv6, number])[] = [];
  for (const entry of value.split(',').map((written) => written.trim())) {
    const network = networkOf(entry);
    if (network === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be none or comma-separated networks or addresses, e.g. 10.0.0.0/8,fd00::/8',
      });
      return z.NEVER;
    }
    networks.push(network);
  }
  return networks;
});

/** Loopback only: where the development demo and a relying party on the same machine listen. */
export const LOOPBACK_NETWORKS: ReachableNetworks = [
  ipaddr.parseCIDR('127.0.0.0/8'),
  ipaddr.parseCIDR('::1/128'),
];

/**
 * COOKIE_SECRETS: comma-separated; the first signs new cookies, all verify (so a secret can be rotated
 * without logging everybody's CSRF cookie out). 32 characters is the minimum @fastify/cookie's signer
 * needs for its HMAC key to carry enough entropy.
 */
export const cookieSecretsSchema = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((secret) => secret.trim())
      .filter((secret) => secret !== ''),
  )
  .pipe(
    z
      .array(z.string().min(32, 'each comma-separated secret must be at least 32 characters'))
      .min(1, 'must list at least one secret'),
  );

/** The members each key type needs besides kty and kid (RFC 7518 §6, RFC 8037 §2): private keys only. */
const KEY_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  RSA: ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi'],
  EC: ['crv', 'x', 'y', 'd'],
  OKP: ['crv', 'x', 'd'],
};

/** The curve each key type must be on: the ones oidc-provider signs ID tokens with (ES256, EdDSA). */
const KEY_CURVES: Readonly<Record<string, string>> = { EC: 'P-256', OKP: 'Ed25519' };

/** The JWS algorithms a key of each type may name in `alg` (RFC 7518 §3.1, RFC 8037 §3.1). */
const KEY_ALGORITHMS: Readonly<Record<string, readonly string[]>> = {
  RSA: ['RS256', 'PS256'],
  EC: ['ES256'],
  OKP: ['EdDSA', 'Ed25519'],
};

/** The JWS algorithms a signing key signs with: the one its `alg` names, else every one of its type. */
export function keyAlgorithms(key: Readonly<Record<string, unknown>>): readonly string[] {
  if (typeof key.alg === 'string') return [key.alg];
  return typeof key.kty === 'string' ? (KEY_ALGORITHMS[key.kty] ?? []) : [];
}

/** One key's first problem, without echoing its material; undefined when it can sign. */
function keyProblem(key: Record<string, unknown>): string | undefined {
  const kty = key.kty;
  if (typeof kty !== 'string' || !(kty in KEY_MEMBERS)) return 'kty must be RSA, EC or OKP';
  const curve = KEY_CURVES[kty];
  if (curve !== undefined && key.crv !== curve) return `an ${kty} key must be on the curve ${curve}`;
  const missing = (KEY_MEMBERS[kty] ?? []).filter(
    (name) => typeof key[name] !== 'string' || key[name] === '',
  );
  if (missing.includes('d')) return 'must be a private key (with "d"); publish nothing else here';
  if (missing.length > 0) return `an ${kty} private key needs ${missing.map((m) => `"${m}"`).join(', ')}`;
  if (key.use !== undefined && key.use !== 'sig') return 'use must be "sig" (or absent)';
  const algorithms = KEY_ALGORITHMS[kty] ?? [];
  if (key.alg !== undefined && !algorithms.includes(String(key.alg))) {
    return `alg must be ${algorithms.join(' or ')} for an ${kty} key (or absent)`;
  }
  try {
    createPrivateKey({ key, format: 'jwk' });
  } catch {
    return 'is not a valid private key (its members do not fit together)';
  }
  return undefined;
}

/** A key named for a message: by its kid when it has one (kids are public), else by position. */
function keyName(key: unknown, index: number): string {
  const kid = typeof key === 'object' && key !== null ? (key as { kid?: unknown }).kid : undefined;
  return typeof kid === 'string' && kid !== '' ? `key "${kid}"` : `key ${index + 1}`;
}

/** A private signing key of OIDC_JWKS: RSA, EC P-256 or OKP Ed25519, with a kid. */
export type PrivateSigningJwk = Readonly<Record<string, unknown>> & {
  readonly kty: 'RSA' | 'EC' | 'OKP';
  readonly kid: string;
  readonly d: string;
};

/**
 * OIDC_JWKS: a JSON Web Key Set of private signing keys, e.g. {"keys":[{"kty":"EC",…,"d":"…"}]}.
 * Every key needs its own kid: relying parties pick the key to verify with by it, and rotation
 * (oidc/signing-keys.ts) tells keys apart by it. The message names the first bad key.
 */
export const jwksSchema = z.string().transform((value, ctx) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  const keys =
    typeof parsed === 'object' && parsed !== null ? (parsed as { keys?: unknown }).keys : undefined;
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (!Array.isArray(keys)) return fail('must be a JSON Web Key Set ({"keys":[…]})');
  if (keys.length === 0) return fail('must hold at least one key');
  const kids = new Set<string>();
  for (const [index, key] of keys.entries()) {
    const name = keyName(key, index);
    if (typeof key !== 'object' || key === null || Array.isArray(key))
      return fail(`${name} is not a JSON object`);
    const problem = keyProblem(key as Record<string, unknown>);
    if (problem !== undefined) return fail(`${name}: ${problem}`);
    const kid = (key as { kid?: unknown }).kid;
    if (typeof kid !== 'string' || kid === '') return fail(`${name}: needs a "kid"`);
    if (kids.has(kid)) return fail(`${name}: the kid is used by another key too`);
    kids.add(kid);
  }
  // OpenID Connect Core §15.1 and Discovery §3: every provider signs ID tokens with RS256, and a
  // relying party that registers no algorithm expects it.
  if (!(keys as Record<string, unknown>[]).some((key) => keyAlgorithms(key).includes('RS256'))) {
    return fail(
      'must hold an RSA key that signs RS256 (without "alg", or "alg": "RS256"): OpenID Connect requires RS256 of every provider, and a client that registers no algorithm gets it',
    );
  }
  return { keys: keys as PrivateSigningJwk[] };
});

/** A scope token of RFC 6749 §3.3: printable ASCII without space, quote or backslash. */
const scopeToken = z
  .string()
  .regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/, 'each scope must be one RFC 6749 scope token');

/**
 * One resource server of RESOURCE_SERVERS (RFC 8707): its identifier is the `resource` a client asks
 * for (an absolute https URL, or http in development, without a fragment), which also becomes the
 * JWT access token's `aud` unless `audience` names another.
 */
const resourceServer = z.strictObject({
  identifier: z
    .string()
    .refine(
      (value) => hasProtocol(value, ['http', 'https']) && !value.includes('#'),
      'each identifier must be an absolute http(s) URL without a fragment (RFC 8707 §2)',
    ),
  scopes: z
    .array(scopeToken)
    .min(1, 'each resource server must accept at least one scope')
    .refine(
      (scopes) => !scopes.some((scope) => (RESOURCE_FORBIDDEN_SCOPES as readonly string[]).includes(scope)),
      `no resource server may accept ${RESOURCE_FORBIDDEN_SCOPES.join(', ')}: those belong to sign-in and the admin API`,
    ),
  /** Seconds an access token for it lives (RFC 9068 tokens cannot be revoked: keep it short). */
  accessTokenTtl: z.number().int().min(60).max(86_400).default(600),
  audience: z.string().min(1).optional(),
});

/**
 * RESOURCE_SERVERS: a JSON array of APIs that accept this provider's access tokens, served beside
 * those registered with the admin CLI/API (a registration of the same identifier takes the entry's
 * place: oidc/resource-servers.ts), e.g.
 * [{"identifier":"https://api.planner.example/","scopes":["planning:read"],"accessTokenTtl":600}].
 */
export const resourceServersSchema = z
  .string()
  .transform((value, ctx) => {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of resource servers' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(resourceServer, { error: 'must be a JSON array of resource servers' })
      .refine(
        (servers) => new Set(servers.map((server) => server.identifier)).size === servers.length,
        'each identifier may appear only once',
      ),
  );

/** A mailbox's address as SMTP's MAIL FROM takes it: a local part and a domain, no spaces. */
const SENDER_ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;

/**
 * MAIL_FROM: one mailbox, with or without a display name ("Keycard <no-reply@example.com>"). A relay
 * refuses anything else for every message, which no retry mends (mail/retry-schedule.ts).
 */
export const mailSenderSchema = z.string().refine(
  (value) => {
    const parsed = addressparser(value);
    const [mailbox] = parsed;
    return parsed.length === 1 && mailbox?.group === undefined && SENDER_ADDRESS.test(mailbox?.address ?? '');
  },
  { error: 'must be one sender address such as "Keycard <no-reply@example.com>"' },
);

/**
 * The sender when MAIL_FROM is unset: no-reply at PUBLIC_URL's host name, which a relay accepts more
 * readily than a made-up domain; localhost for an address (IP literal).
 */
export function defaultMailSender(publicUrl: string): string {
  const host = new URL(publicUrl).hostname;
  const domain = isIP(host.replace(/^\[|\]$/g, '')) === 0 ? host : 'localhost';
  return `Keycard <no-reply@${domain}>`;
}
