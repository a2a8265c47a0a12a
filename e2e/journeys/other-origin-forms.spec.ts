import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignInPage } from '../pages/sign-in-page.ts';
import { expect, test } from '../support/fixtures.ts';

/** A request that reached the relying party: its method and form fields. */
interface Arrival {
  readonly method: string;
  readonly fields: URLSearchParams;
}

/**
 * A relying party of another origin (its own loopback port), as a server-rendered application is:
 * ASP.NET Core's OpenID Connect handler, for one, asks for response_mode=form_post.
 */
async function startRelyingParty() {
  // By path: the browser also asks the relying party for its favicon.
  const arrivals = new Map<string, Arrival>();
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    arrivals.set(request.url ?? '', { method: request.method ?? '', fields: new URLSearchParams(body) });
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>Planner</title><h1>Back at the relying party</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    arrivalAt: (path: string) => arrivals.get(path),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The provider's self-submitting pages post to the relying party (form_post) or to its own confirm
 * step, which redirects there (a sign-out of a browser without a session). Chromium applies the
 * page's CSP form-action to both, so the relying party's origin must be allowed on those pages.
 */
test('a relying party on another origin gets the browser back from a sign-out without a session and from a form_post sign-in', async ({
  page,
  texts,
  demoAccount,
  adminApi,
}) => {
  const rp = await startRelyingParty();
  try {
    const clientId = `form-post-${randomBytes(4).toString('hex')}`;
    await adminApi('POST', '/clients', {
      id: clientId,
      name: 'Planner',
      redirectUris: [`${rp.origin}/callback`],
      postLogoutUris: [`${rp.origin}/signed-out`],
    });

    // The browser has no session yet: the provider's page posts to its confirm step. Waiting for the
    // load of a page whose submission is refused would hang: the URL tells, on the provider or back.
    const signOut = new URLSearchParams({
      client_id: clientId,
      post_logout_redirect_uri: `${rp.origin}/signed-out`,
      state: 'bye',
    });
    await page.goto(`/oidc/session/end?${signOut}`, { waitUntil: 'commit' });
    await expect(page).toHaveURL(`${rp.origin}/signed-out?state=bye`);

    const state = randomBytes(8).toString('hex');
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      response_mode: 'form_post',
      redirect_uri: `${rp.origin}/callback`,
      scope: 'openid',
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    await page.goto(`/oidc/auth?${authorize}`);
    await new SignInPage(page).signIn(texts, demoAccount.email, demoAccount.password);
    await expect(page).toHaveURL(`${rp.origin}/callback`);
    const callback = rp.arrivalAt('/callback');
    expect(callback?.method).toBe('POST');
    expect(callback?.fields.get('state')).toBe(state);
    expect(callback?.fields.get('code')).toBeTruthy();
  } finally {
    await rp.close();
  }
});
