import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp, csrfHeaders, fetchCsrf } from './support/app.ts';
import { useTestService } from './support/test-service.ts';

const service = useTestService();

function directives(response: LightMyRequestResponse): Map<string, string> {
  const policy = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
  );
}

describe('security headers (DESIGN §2 Headers) over http', () => {
  const app = () => service().app;

  it('send a CSP without inline script, plugins, base-uri or framing', async () => {
    const csp = directives(await app().inject({ method: 'GET', url: '/api/getcsrftoken' }));
    // Inline style only by hash: the built page's first-paint block (inline-style-csp.test.ts).
    expect(csp.get('style-src')).toMatch(/^'self'(?: 'sha256-[A-Za-z0-9+/]+=*')*$/);
    expect(Object.fromEntries(csp)).toEqual({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': csp.get('style-src'),
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'font-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'frame-ancestors': "'none'",
      'form-action': "'self'",
    });
  });

  it('send no-referrer, nosniff and DENY framing on pages and API alike', async () => {
    const protocol = ['/oidc/.well-known/openid-configuration', '/oidc/auth?client_id=unknown'];
    for (const url of ['/api/getcsrftoken', '/some/page', ...protocol]) {
      const response = await app().inject({ method: 'GET', url });
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('send them on the refusals of the first hooks too: another host name (421), a method no route takes (405)', async () => {
    const refusals = [
      await app().inject({ method: 'GET', url: '/api/getcsrftoken', headers: { host: 'elsewhere.example' } }),
      await app().inject({ method: 'PUT', url: '/api/login' }),
    ];
    expect(refusals.map((response) => response.statusCode)).toEqual([421, 405]);
    for (const response of refusals) {
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(directives(response).get('default-src')).toBe("'self'");
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('send them on a path the router cannot read too, answered as bad input without repeating the path', async () => {
    for (const [url, code] of [
      ['/resetPassword/1/Live-Code-abc%FF', 'bad_request'],
      ['/oidc/auth/uid%ED%A0%80', 'bad_request'],
      ['/api/login%C0', 'bad_request'],
      ['/admin/api/users/%ZZ', 'invalid_input'],
    ] as const) {
      const response = await app().inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ code, message: 'The address is not valid.' });
      expect(response.headers['content-type'], url).toBe('application/json; charset=utf-8');
      expect(response.body, url).not.toContain('Live-Code');
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(directives(response).get('default-src'), url).toBe("'self'");
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.headers['x-request-id'], url).toMatch(/\S/);
    }
  });

  it('send no HSTS when PUBLIC_URL is http', async () => {
    const response = await app().inject({ method: 'GET', url: '/api/getcsrftoken' });
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  // The text resource is the exception: no-cache with an ETag (static-delivery.test.ts).
  it('mark every other /api answer no-store, errors included', async () => {
    const session = await fetchCsrf(app());
    const answers = [
      await app().inject({ method: 'GET', url: '/api/getcsrftoken' }),
      await app().inject({ method: 'GET', url: '/api/no-such-call' }),
      await app().inject({ method: 'POST', url: '/api/no-such-call', payload: {} }),
      await app().inject({
        method: 'POST',
        url: '/api/no-such-call',
        payload: '{',
        headers: csrfHeaders(session),
      }),
      await app().inject({
        method: 'GET',
        url: `/api/i18n/getresource?requestedLanguageCode=${'x'.repeat(65)}`,
      }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 404, 403, 404, 400]);
    for (const response of answers) expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('security headers over https', () => {
  it('add HSTS when PUBLIC_URL is https, on its own name only: never on the refusal of another', async () => {
    const app = await buildTestApp(service().db, { env: { PUBLIC_URL: 'https://login.example.com' } });
    const hsts = async (request: InjectOptions) =>
      (await app.inject(request)).headers['strict-transport-security'];
    const host = { host: 'login.example.com' };
    expect(await hsts({ method: 'GET', url: '/api/getcsrftoken', headers: host })).toBe(
      'max-age=31536000; includeSubDomains',
    );
    // A method no route takes is refused after the host check: the name is the service's own.
    expect(await hsts({ method: 'PUT', url: '/api/login', headers: host })).toBe(
      'max-age=31536000; includeSubDomains',
    );
    // A parent or sibling name reached over https must not be pinned, with every name below it: not
    // by a refusal, nor by a health probe, which answers under any name.
    const parent = { host: 'example.com' };
    expect(await hsts({ method: 'GET', url: '/api/getcsrftoken', headers: parent })).toBeUndefined();
    expect((await app.inject({ method: 'GET', url: '/health/live', headers: parent })).statusCode).toBe(200);
    expect(await hsts({ method: 'GET', url: '/health/live', headers: parent })).toBeUndefined();
    await app.close();
  });
});
