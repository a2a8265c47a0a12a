import { errorBodySchema } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { CROSS_SITE_EXEMPTIONS } from '../src/http/csrf.ts';
import type { RouteModule } from '../src/http/route-module.ts';
import { apiRoutes } from '../src/http/routes/index.ts';
import { buildTestApp, cookieHeaderOf, csrfHeaders, fetchCsrf } from './support/app.ts';
import { useTestService } from './support/test-service.ts';

/** A test-only POST with an observable effect. */
function probeRoutes(effects: string[]): RouteModule {
  return (api) => {
    api.post('/api/test-effect', async () => {
      effects.push('ran');
      return { done: true };
    });
  };
}

/** What the probe of the file's app ran; tests that build apps of their own keep their own. */
const effects: string[] = [];
const service = useTestService({ routes: [...apiRoutes, probeRoutes(effects)] });

describe('CSRF (DESIGN §2)', () => {
  const app = () => service().app;

  const post = (headers: Record<string, string>) =>
    app().inject({ method: 'POST', url: '/api/test-effect', payload: { any: 1 }, headers });

  it('GET /api/getcsrftoken sets an HttpOnly, SameSite=Lax secret cookie and answers the token as text', async () => {
    const response = await app().inject({ method: 'GET', url: '/api/getcsrftoken' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toMatch(/^[\w-]{20,}$/);
    const [cookie] = response.cookies;
    expect(cookie).toMatchObject({ name: 'csrf', httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeUndefined();
    // Signed: the value carries an HMAC, so a forged cookie is not accepted as the secret.
    expect(cookie?.value).toMatch(/\./);
  });

  it('refuses a POST without token with 403 csrf_rejected and no effect', async () => {
    const session = await fetchCsrf(app());
    const before = effects.length;
    const incomplete: Record<string, string>[] = [
      {},
      { cookie: session.cookie },
      { 'x-csrf-token': session.token },
    ];
    for (const headers of incomplete) {
      const response = await post(headers);
      expect(response.statusCode).toBe(403);
      expect(errorBodySchema.parse(response.json())).toMatchObject({ code: 'csrf_rejected' });
    }
    expect(effects.length).toBe(before);
  });

  it.each(['/%61pi/test-effect', '/%41PI/test-effect', '/%%361pi/test-effect', '/%6%31pi/test-effect'])(
    'refuses a POST without token to %s, a spelling of an API path the router may decode, with no effect',
    async (url) => {
      const before = effects.length;
      const response = await app().inject({ method: 'POST', url, payload: { any: 1 } });
      expect([403, 404]).toContain(response.statusCode);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(effects.length).toBe(before);
    },
  );

  it('answers a percent-escaped spelling of an API path with no-store, as the path itself', async () => {
    const response = await app().inject({ method: 'GET', url: '/%61pi/getcsrftoken' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('refuses a wrong token, a token of another session and a tampered cookie', async () => {
    const mine = await fetchCsrf(app());
    const theirs = await fetchCsrf(app());
    const before = effects.length;
    const tampered = mine.cookie.replace(/=(.)/, (_all, first: string) => `=${first === 'A' ? 'B' : 'A'}`);
    for (const headers of [
      { cookie: mine.cookie, 'x-csrf-token': `${mine.token}x` },
      { cookie: mine.cookie, 'x-csrf-token': theirs.token },
      { cookie: tampered, 'x-csrf-token': mine.token },
    ]) {
      const response = await post(headers);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'csrf_rejected' });
    }
    expect(effects.length).toBe(before);
  });

  it('lets a POST with the matching token through', async () => {
    const session = await fetchCsrf(app());
    const before = effects.length;
    const response = await post(csrfHeaders(session));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ done: true });
    expect(effects.length).toBe(before + 1);
  });

  it('keeps the cookie when the SPA asks for a token again', async () => {
    const session = await fetchCsrf(app());
    const again = await app().inject({
      method: 'GET',
      url: '/api/getcsrftoken',
      headers: { cookie: session.cookie },
    });
    expect(again.cookies).toHaveLength(0);
    expect((await post({ cookie: session.cookie, 'x-csrf-token': again.body })).statusCode).toBe(200);
  });

  it('refuses cross-site API requests with 403 cross_site_rejected, even with a valid token', async () => {
    const session = await fetchCsrf(app());
    const before = effects.length;
    const crossSite = { ...csrfHeaders(session), 'sec-fetch-site': 'cross-site' };
    const refused = [
      await post(crossSite),
      await app().inject({ method: 'GET', url: '/api/getcsrftoken', headers: crossSite }),
      await app().inject({ method: 'GET', url: '/api/i18n/getresource', headers: crossSite }),
    ];
    for (const response of refused) {
      expect(response.statusCode).toBe(403);
      expect(errorBodySchema.parse(response.json()).code).toBe('cross_site_rejected');
    }
    expect(effects.length).toBe(before);
  });

  it('accepts same-origin, same-site and user-initiated (none) fetch metadata', async () => {
    const session = await fetchCsrf(app());
    for (const site of ['same-origin', 'same-site', 'none']) {
      expect((await post({ ...csrfHeaders(session), 'sec-fetch-site': site })).statusCode).toBe(200);
    }
  });

  it('exempts only the listed upstream callback from the cross-site rule', async () => {
    const path = CROSS_SITE_EXEMPTIONS[0]?.path ?? '';
    const headers = { 'sec-fetch-site': 'cross-site' };
    // The callback itself answers (here: no flow cookie, so the error page), not the cross-site refusal.
    const callback = await app().inject({ method: 'GET', url: `${path}?code=x&state=y`, headers });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('http://localhost:3000/error');
    // A POST there is no method of the route at all: refused before the cross-site rule is asked.
    expect((await app().inject({ method: 'POST', url: path, headers })).statusCode).toBe(405);
  });

  it('leaves pages alone: a link from another site opens the SPA', async () => {
    const response = await app().inject({
      method: 'GET',
      url: '/unlock/abc',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).not.toBe(403);
  });
});

describe('CSRF cookie settings and secrets', () => {
  it('uses a __Host- cookie marked Secure when PUBLIC_URL is https', async () => {
    const app = await buildTestApp(service().db, { env: { PUBLIC_URL: 'https://login.example.com' } });
    const [cookie] = (await app.inject({ method: 'GET', url: '/api/getcsrftoken' })).cookies;
    expect(cookie).toMatchObject({
      name: '__Host-csrf',
      secure: true,
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
    });
    expect(cookie?.domain).toBeUndefined();
    await app.close();
  });

  it('keeps tokens valid across a restart in development (secret stored in the database)', async () => {
    const effects: string[] = [];
    const first = await buildTestApp(service().db, { routes: [...apiRoutes, probeRoutes(effects)] });
    const session = await fetchCsrf(first);
    await first.close();
    const second = await buildTestApp(service().db, { routes: [...apiRoutes, probeRoutes(effects)] });
    const response = await second.inject({
      method: 'POST',
      url: '/api/test-effect',
      payload: {},
      headers: csrfHeaders(session),
    });
    expect(response.statusCode).toBe(200);
    await second.close();
  });

  it('accepts cookies signed with a rotated-out secret still listed in COOKIE_SECRETS', async () => {
    const oldSecret = 'o'.repeat(32);
    const newSecret = 'n'.repeat(32);
    const before = await buildTestApp(service().db, { env: { COOKIE_SECRETS: oldSecret } });
    const session = await fetchCsrf(before);
    await before.close();
    const routes = [...apiRoutes, probeRoutes([])];
    const rotated = await buildTestApp(service().db, {
      env: { COOKIE_SECRETS: `${newSecret},${oldSecret}` },
      routes,
    });
    const dropped = await buildTestApp(service().db, { env: { COOKIE_SECRETS: newSecret }, routes });
    const request = {
      method: 'POST',
      url: '/api/test-effect',
      payload: {},
      headers: csrfHeaders(session),
    } as const;
    expect((await rotated.inject(request)).statusCode).toBe(200);
    expect((await dropped.inject(request)).statusCode).toBe(403);
    // A fresh cookie is signed with the first (new) secret.
    const fresh = await rotated.inject({ method: 'GET', url: '/api/getcsrftoken' });
    expect(
      (
        await dropped.inject({
          ...request,
          headers: csrfHeaders({ cookie: cookieHeaderOf(fresh), token: fresh.body }),
        })
      ).statusCode,
    ).toBe(200);
    await rotated.close();
    await dropped.close();
  });
});
