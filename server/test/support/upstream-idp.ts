import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/**
 * An upstream OpenID Connect provider for federation tests: a real oidc-provider on a loopback port,
 * with a minimal sign-in page of its own (GET shows a form, POST signs in) and no consent screen.
 * Keycard talks to it over HTTP exactly as to an organisation's provider.
 */
export interface UpstreamPerson {
  readonly sub: string;
  readonly email: string;
  /** Absent: the provider states nothing about the address (no email_verified claim at all). */
  readonly emailVerified?: boolean;
  readonly name: string;
  readonly password: string;
  /**
   * The `sub` the UserInfo endpoint answers for this person when it is not the ID token's: a provider
   * that answers for someone else (OpenID Connect Core §5.3.2 says the client must then refuse).
   */
  readonly userInfoSubject?: string;
}

export interface UpstreamIdpOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Keycard's PUBLIC_URL/api/ExternalIdentityProviderCallback. */
  readonly redirectUri: string;
  readonly people: readonly UpstreamPerson[];
  /**
   * True: the ID token carries only what the openid scope asks for, the e-mail and profile claims come
   * from the UserInfo endpoint alone (OpenID Connect Core §5.4; oidc-provider's default, Okta's too).
   * Default false: they are in the ID token, as most organisations' providers send them.
   */
  readonly conformIdTokenClaims?: boolean;
}

export interface UpstreamIdp {
  /** The issuer, e.g. http://127.0.0.1:41234 */
  readonly issuer: string;
  /** The login_hint of the last authorization request, as the provider received it. */
  lastLoginHint(): string | undefined;
  /**
   * Adds the person, or replaces the one with the same `sub`: as an organisation changes someone's
   * address while the subject stays. Their next sign-in and ID token carry the new details.
   */
  setPerson(person: UpstreamPerson): void;
  /**
   * Signs the next sign-ins in as if the person had authenticated `seconds` ago (their ID token's
   * auth_time): a provider that kept an earlier sign-in instead of asking again. 0 is now.
   */
  authenticateSecondsAgo(seconds: number): void;
  /**
   * True: the provider's JWK Set (`/jwks`) publishes another RSA key under its signing key's `kid`, so
   * no ID token it signs verifies: a token that is not the provider's, as a client sees it.
   */
  publishForeignKey(on: boolean): void;
  /** How many requests the provider has had for `path` (`/.well-known/openid-configuration`, `/jwks` …). */
  requestsFor(path: string): number;
  /** True: requests for `path` are dropped unanswered, their connection closed, as by a provider down. */
  dropRequestsFor(path: string, on: boolean): void;
  close(): Promise<void>;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function loginPage(uid: string, hint: string, failed: boolean): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Upstream sign-in</title></head>
<body><main><h1>Upstream sign-in</h1>
${failed ? '<p role="alert">Wrong e-mail or password.</p>' : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>E-mail <input name="email" type="email" value="${escapeHtml(hint)}" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in upstream</button>
</form></main></body></html>`;
}

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startUpstreamIdp(options: UpstreamIdpOptions): Promise<UpstreamIdp> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const people = new Map(options.people.map((person) => [person.sub, person]));
  let hint: string | undefined;
  let authenticationAge = 0;
  let foreignKeySet: string | undefined;
  const requests = new Map<string, number>();
  const dropped = new Set<string>();

  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    jwks: { keys: [{ ...signingKey, use: 'sig', alg: 'RS256', kid: 'upstream-test' }] },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    async findAccount(ctx, sub) {
      const person = people.get(sub);
      if (!person) return undefined;
      return {
        // oidc-provider answers UserInfo with the `sub` of the account it finds here.
        accountId: ctx.oidc.route === 'userinfo' ? (person.userInfoSubject ?? sub) : sub,
        claims: () => ({
          sub,
          email: person.email,
          ...(person.emailVerified === undefined ? {} : { email_verified: person.emailVerified }),
          name: person.name,
        }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: options.conformIdTokenClaims ?? false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // No consent screen: the grant is made on the spot.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope([...ctx.oidc.requestParamScopes].join(' '));
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();

  async function interaction(request: IncomingMessage, response: ServerResponse, path: string) {
    const details = await provider.interactionDetails(request, response);
    const loginHint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
    if (request.method === 'GET' && path === `/interaction/${details.uid}`) {
      hint = loginHint || undefined;
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(loginPage(details.uid, loginHint, false));
      return;
    }
    if (request.method === 'POST' && path === `/interaction/${details.uid}/login`) {
      const form = await formOf(request);
      const person = [...people.values()].find(
        (candidate) => candidate.email === form.get('email') && candidate.password === form.get('password'),
      );
      if (!person) {
        response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(loginPage(details.uid, loginHint, true));
        return;
      }
      const ts = Math.floor(Date.now() / 1000) - authenticationAge;
      await provider.interactionFinished(request, response, { login: { accountId: person.sub, ts } });
      return;
    }
    response.writeHead(404).end();
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', issuer).pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (dropped.has(path)) {
      request.socket.destroy();
      return;
    }
    if (path === '/jwks' && foreignKeySet !== undefined) {
      response.writeHead(200, { 'content-type': 'application/jwk-set+json' }).end(foreignKeySet);
      return;
    }
    if (!path.startsWith('/interaction/')) {
      callback(request, response);
      return;
    }
    interaction(request, response, path).catch(() => {
      if (!response.headersSent) response.writeHead(400).end('sign-in expired');
    });
  });

  return {
    issuer,
    lastLoginHint: () => hint,
    setPerson: (person) => {
      people.set(person.sub, person);
    },
    authenticateSecondsAgo: (seconds) => {
      authenticationAge = seconds;
    },
    publishForeignKey: (on) => {
      foreignKeySet = undefined;
      if (!on) return;
      const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
      foreignKeySet = JSON.stringify({
        keys: [{ ...foreign, use: 'sig', alg: 'RS256', kid: 'upstream-test' }],
      });
    },
    requestsFor: (path) => requests.get(path) ?? 0,
    dropRequestsFor: (path, on) => {
      if (on) dropped.add(path);
      else dropped.delete(path);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
