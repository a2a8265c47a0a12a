import { describe, expect, it } from 'vitest';
import { CLIENT_SECRET, registerConfidentialClient } from './support/confidential-relying-party.ts';
import { REDIRECT_URI } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

// The provider renders an error as a page whenever the caller prefers HTML, on every endpoint. A
// relying party's own calls must get their JSON error and status whatever they accept (RFC 6749
// §5.2, RFC 6750 §3, RFC 7662 §2.3): Java's HttpURLConnection sends this by default.
const JAVA_ACCEPT = 'text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2';

const service = useTestService({
  setUp: async ({ db }) => {
    await registerConfidentialClient(db, 'planner');
  },
});
const app = () => service().app;

const basic = `Basic ${Buffer.from(`planner:${CLIENT_SECRET}`).toString('base64')}`;

function post(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return app().inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: JAVA_ACCEPT, ...headers },
    payload: new URLSearchParams(form).toString(),
  });
}

describe('errors of the endpoints a relying party calls, for a caller that prefers HTML', () => {
  it('token: 400 invalid_grant as JSON, not a redirect to the error page', async () => {
    const answer = await post(
      '/oidc/token',
      { grant_type: 'authorization_code', code: 'no-such-code', redirect_uri: REDIRECT_URI },
      { authorization: basic },
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.json()).toMatchObject({ error: 'invalid_grant' });
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('token: 401 invalid_client as JSON for a wrong secret', async () => {
    const wrong = `Basic ${Buffer.from('planner:wrong-secret').toString('base64')}`;
    const answer = await post('/oidc/token', { grant_type: 'client_credentials' }, { authorization: wrong });
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('userinfo: 401 invalid_token as JSON with its challenge', async () => {
    const answer = await app().inject({
      method: 'GET',
      url: '/oidc/me',
      headers: { accept: JAVA_ACCEPT, authorization: 'Bearer no-such-token' },
    });
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toMatchObject({ error: 'invalid_token' });
    expect(answer.headers['www-authenticate']).toMatch(/^Bearer .*error="invalid_token"/);
  });

  it('introspection and revocation: 401 invalid_client as JSON without the client’s credentials', async () => {
    for (const url of ['/oidc/token/introspection', '/oidc/token/revocation']) {
      const answer = await post(url, { token: 'anything', client_id: 'planner' });
      expect(answer.statusCode, url).toBe(401);
      expect(answer.json(), url).toMatchObject({ error: 'invalid_client' });
    }
  });

  it('the authorization endpoint, which a person opens, still shows the error page, in any letter case', async () => {
    for (const path of ['/oidc/auth', '/oidc/AUTH']) {
      const answer = await app().inject({
        method: 'GET',
        url: `${path}?${new URLSearchParams({ client_id: 'no-such-client', response_type: 'code', scope: 'openid' })}`,
        headers: { accept: 'text/html' },
      });
      expect(answer.statusCode, path).toBe(303);
      expect(answer.headers.location, path).toMatch(/^\/error\/[0-9A-Z]{8}$/);
    }
  });
});
