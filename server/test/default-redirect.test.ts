import { getCalls } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { useTestService } from './support/test-service.ts';

/** Issue 16: the error page's last way back, to DEFAULT_REDIRECT_URL, which the SPA does not know. */
const PATH = getCalls.defaultRedirect.path;

describe('GET /api/DefaultRedirect with DEFAULT_REDIRECT_URL set', () => {
  const service = useTestService({ env: { DEFAULT_REDIRECT_URL: 'https://planner.example/start' } });
  const app = () => service().app;

  it('sends the browser on to the configured URL with 303 See Other, never stored', async () => {
    const response = await app().inject({
      method: 'GET',
      url: PATH,
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('https://planner.example/start');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers a HEAD request the same way', async () => {
    const response = await app().inject({ method: 'HEAD', url: PATH });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('https://planner.example/start');
  });

  it('goes to the configured URL whatever the query names: no open redirect', async () => {
    for (const query of [
      'RedirectUrl=https%3A%2F%2Fevil.example%2F',
      'redirectUrl=https%3A%2F%2Fevil.example%2F',
      'ReturnUrl=%2F%2Fevil.example',
      'to=https%3A%2F%2Fevil.example%2F',
    ]) {
      const response = await app().inject({ method: 'GET', url: `${PATH}?${query}` });
      expect(response.statusCode, query).toBe(303);
      expect(response.headers.location, query).toBe('https://planner.example/start');
    }
  });

  it('refuses a cross-site page that would use it as a bounce, like every API path', async () => {
    const response = await app().inject({
      method: 'GET',
      url: PATH,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.headers.location).toBeUndefined();
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
