import { errorBodySchema } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { UPSTREAM_CALLBACK_PATH } from '../src/http/routes/federation.ts';
import { csrfHeaders, fetchCsrf } from './support/app.ts';
import { useTestService } from './support/test-service.ts';

const service = useTestService();

describe('cross-site rule at its edges (DESIGN §2 CSRF)', () => {
  const app = () => service().app;

  it('exempts the upstream callback for GET only: a cross-site POST to it is refused', async () => {
    const session = await fetchCsrf(app());
    const response = await app().inject({
      method: 'POST',
      url: UPSTREAM_CALLBACK_PATH,
      payload: {},
      // A valid token too, so only the cross-site rule or the method can refuse it.
      headers: { ...csrfHeaders(session), 'sec-fetch-site': 'cross-site' },
    });
    // The route takes no POST at all, which is answered before the cross-site rule is asked.
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(errorBodySchema.parse(response.json()).code).toBe('method_not_allowed');
  });

  it('exempts the callback path exactly, not another API path under the same method', async () => {
    const response = await app().inject({
      method: 'GET',
      url: `${UPSTREAM_CALLBACK_PATH}Other?code=x`,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'cross_site_rejected' });
  });

  it('reads the token from the header only, never from the body', async () => {
    const session = await fetchCsrf(app());
    const response = await app().inject({
      method: 'POST',
      url: '/api/login',
      headers: { cookie: session.cookie },
      payload: { _csrf: session.token, Username: 'a@example.com', Password: 'x' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'csrf_rejected' });
  });
});
