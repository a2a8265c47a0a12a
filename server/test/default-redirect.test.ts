import { getCalls } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { RP, registerTestClient } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/**
 * Issue 16: the error page's last way back, to DEFAULT_REDIRECT_URL, which the SPA does not know; and
 * the way to the application a link's RedirectUrl names, checked against the allow-list (DESIGN §2).
 */
const PATH = getCalls.defaultRedirect.path;

describe('GET /api/DefaultRedirect with DEFAULT_REDIRECT_URL set', () => {
  const service = useTestService({ env: { DEFAULT_REDIRECT_URL: 'https://home.example/start' } });
  const app = () => service().app;

  it('sends the browser on to the configured URL with 303 See Other, never stored', async () => {
    const response = await app().inject({
      method: 'GET',
      url: PATH,
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('https://home.example/start');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers a HEAD request the same way', async () => {
    const response = await app().inject({ method: 'HEAD', url: PATH });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('https://home.example/start');
  });

  it('goes to the configured URL for any target not on the allow-list: no open redirect', async () => {
    await registerTestClient(service().db);
    for (const query of [
      'RedirectUrl=https%3A%2F%2Fevil.example%2F',
      'RedirectUrl=https%3A%2F%2Fplanner.example.evil.example%2F',
      'RedirectUrl=https%3A%2F%2Fplanner.example%40evil.example%2F',
      'RedirectUrl=https%3A%2F%2Fuser%3Apw%40planner.example%2Fstart',
      'RedirectUrl=javascript%3Aalert(1)',
      'RedirectUrl=%2F%2Fevil.example',
      'RedirectUrl=%2Fdemo',
      `RedirectUrl=${encodeURIComponent(`https://planner.example/${'a'.repeat(2100)}`)}`,
      'RedirectUrl=https%3A%2F%2Fplanner.example%2F%0D%0ASet-Cookie%3A%20x%3D1',
      'redirectUrl=https%3A%2F%2Fplanner.example%2Fother',
      'ReturnUrl=%2F%2Fevil.example',
      'to=https%3A%2F%2Fevil.example%2F',
    ]) {
      const response = await app().inject({ method: 'GET', url: `${PATH}?${query}` });
      expect(response.statusCode, query).toBe(303);
      expect(response.headers.location, query).toBe('https://home.example/start');
    }
  });

  it('sends the browser to a RedirectUrl whose origin is registered for a client or configured', async () => {
    await registerTestClient(service().db);
    for (const target of [
      `${RP}/home?tab=plans#today`,
      'https://home.example/other',
      'http://localhost:3000/somewhere',
    ]) {
      const response = await app().inject({
        method: 'GET',
        url: `${PATH}?${new URLSearchParams({ RedirectUrl: target })}`,
      });
      expect(response.statusCode, target).toBe(303);
      expect(response.headers.location, target).toBe(target);
    }
  });

  it('refuses a cross-site page that would use it as a bounce, like every API path: to the error page', async () => {
    const response = await app().inject({
      method: 'GET',
      url: PATH,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    // A navigation, so the refusal is the error page under its log line's reference, not JSON, and
    // never the way on.
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/error/${String(response.headers['x-request-id'])}`);
  });
});

describe('GET /api/DefaultRedirect without DEFAULT_REDIRECT_URL, in development', () => {
  const service = useTestService();

  it('goes to the development default, the demo relying party at PUBLIC_URL/demo (DESIGN §5)', async () => {
    const response = await service().app.inject({ method: 'GET', url: PATH });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('http://localhost:3000/demo');
  });
});
