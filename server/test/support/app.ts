import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type Config, loadConfig } from '../../src/config.ts';
import { type AppOptions, buildApp } from '../../src/http/app.ts';
import type { Db } from '../../src/store/database.ts';
import { testSigningJwk } from './signing-key.ts';

/** A development-mode configuration as the service would parse it, with `env` on top. */
export function testConfig(env: NodeJS.ProcessEnv = {}): Config {
  return loadConfig({ NODE_ENV: 'test', ...env });
}

/**
 * What production refuses to start without (a public https URL, PostgreSQL and SMTP addresses that
 * are never connected to in these tests, cookie secrets and a signing key), `env` on top.
 */
export function productionEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const jwk = testSigningJwk();
  return {
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://login.example.test',
    DATABASE_URL: 'postgres://keycard@127.0.0.1:5432/unused',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    COOKIE_SECRETS: 'p'.repeat(32),
    OIDC_JWKS: JSON.stringify({ keys: [jwk] }),
    ...env,
  };
}

export interface TestAppOptions extends Partial<Omit<AppOptions, 'db' | 'config'>> {
  /** Environment variables, parsed like the real ones. */
  readonly env?: NodeJS.ProcessEnv;
}

/** The real app on a test database, ready for `inject`. The caller closes it. */
export async function buildTestApp(
  db: Db,
  { env, ...options }: TestAppOptions = {},
): Promise<FastifyInstance> {
  const app = await buildApp({ config: testConfig(env), db, ...options });
  await app.ready();
  return app;
}

/** What a browser holds after GET /api/getcsrftoken: the secret cookie and the token. */
export interface CsrfSession {
  readonly cookie: string;
  readonly token: string;
}

export function cookieHeaderOf(response: LightMyRequestResponse): string {
  return response.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

export async function fetchCsrf(app: FastifyInstance): Promise<CsrfSession> {
  const response = await app.inject({ method: 'GET', url: '/api/getcsrftoken' });
  if (response.statusCode !== 200) throw new Error(`getcsrftoken answered ${response.statusCode}`);
  return { cookie: cookieHeaderOf(response), token: response.body };
}

/** Headers of a same-origin SPA call that passes the CSRF check. */
export function csrfHeaders(session: CsrfSession): Record<string, string> {
  return { cookie: session.cookie, 'x-csrf-token': session.token, 'sec-fetch-site': 'same-origin' };
}
