import { languageFor, type TextResource } from '@keycard/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import { OIDC_MOUNT } from '../oidc/provider.ts';
import { DEMO_CSS, renderDemoPage } from './demo-page.ts';
import { DEMO_CLIENT_ID } from './demo-setup.ts';

export interface DemoDeps {
  publicUrl: string;
  textsFor: (language: string) => TextResource;
}

const FLOW_COOKIE = 'demo_flow';
const SESSION_COOKIE = 'demo_session';

interface Flow {
  verifier: string;
  state: string;
  nonce: string;
}

interface DemoSession {
  claims: Record<string, unknown>;
  idToken: string;
}

function readSigned<T>(request: FastifyRequest, name: string): T | null {
  const raw = request.cookies[name];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return null;
  try {
    return JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8')) as T;
  } catch {
    return null;
  }
}

function setSigned(reply: FastifyReply, name: string, value: unknown, maxAge: number, secure: boolean): void {
  reply.setCookie(name, Buffer.from(JSON.stringify(value)).toString('base64url'), {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/demo',
    maxAge,
  });
}

/**
 * A small relying party inside the service (development mode): authorization code + PKCE against
 * Keycard's own issuer, showing the ID-token claims and signing out through the end-session endpoint.
 */
export async function demoRoutes(app: FastifyInstance, deps: DemoDeps): Promise<void> {
  const secure = deps.publicUrl.startsWith('https:');
  let configuration: Promise<oidc.Configuration> | undefined;
  const discover = () => {
    configuration ??= oidc
      .discovery(new URL(`${deps.publicUrl}${OIDC_MOUNT}`), DEMO_CLIENT_ID, undefined, oidc.None(), {
        execute: secure ? [] : [oidc.allowInsecureRequests],
      })
      .catch((error: unknown) => {
        configuration = undefined; // try again on the next request
        throw error;
      });
    return configuration;
  };

  app.get('/demo', async (request, reply) => {
    const language = languageFor(request.headers['accept-language']);
    const session = readSigned<DemoSession>(request, SESSION_COOKIE);
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return renderDemoPage({
      texts: deps.textsFor(language),
      lang: language,
      claims: session?.claims ?? null,
    });
  });

  app.get('/demo/demo.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(DEMO_CSS));

  app.get('/demo/login', async (_request, reply) => {
    const config = await discover();
    const flow: Flow = {
      verifier: oidc.randomPKCECodeVerifier(),
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
    };
    setSigned(reply, FLOW_COOKIE, flow, 600, secure);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: `${deps.publicUrl}/demo/callback`,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return reply.redirect(url.href, 303);
  });

  app.get('/demo/callback', async (request, reply) => {
    const flow = readSigned<Flow>(request, FLOW_COOKIE);
    reply.clearCookie(FLOW_COOKIE, { path: '/demo' });
    if (!flow) return reply.redirect('/demo', 303);
    const config = await discover();
    const tokens = await oidc.authorizationCodeGrant(config, new URL(request.url, deps.publicUrl), {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const claims = tokens.claims();
    if (!claims || !tokens.id_token) return reply.redirect('/error', 303);
    setSigned(reply, SESSION_COOKIE, { claims, idToken: tokens.id_token }, 8 * 3600, secure);
    return reply.redirect('/demo', 303);
  });

  app.get('/demo/logout', async (request, reply) => {
    const session = readSigned<DemoSession>(request, SESSION_COOKIE);
    reply.clearCookie(SESSION_COOKIE, { path: '/demo' });
    if (!session) return reply.redirect('/demo', 303);
    const config = await discover();
    const url = oidc.buildEndSessionUrl(config, {
      id_token_hint: session.idToken,
      post_logout_redirect_uri: `${deps.publicUrl}/demo`,
    });
    return reply.redirect(url.href, 303);
  });
}
