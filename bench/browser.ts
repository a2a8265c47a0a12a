import { createHash, randomBytes } from 'node:crypto';

/** A minimal browser for one origin: cookies (paths ignored) and manual redirects. */
export class Browser {
  private readonly cookies = new Map<string, string>();
  csrfToken = '';

  constructor(readonly base: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async get(url: string): Promise<Response> {
    const response = await fetch(new URL(url, this.base), {
      redirect: 'manual',
      headers: { cookie: this.cookieHeader(), accept: 'text/html' },
    });
    this.keep(response);
    return response;
  }

  async post(path: string, body: unknown): Promise<Response> {
    const response = await fetch(new URL(path, this.base), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: this.cookieHeader(),
        'content-type': 'application/json',
        'x-csrf-token': this.csrfToken,
        'sec-fetch-site': 'same-origin',
      },
      body: JSON.stringify(body),
    });
    this.keep(response);
    return response;
  }

  async loadSpa(): Promise<void> {
    this.csrfToken = await (await this.get('/api/getcsrftoken')).text();
  }
}

export const DEMO_CLIENT = 'keycard-demo';

export interface Started {
  returnUrl: string;
  verifier: string;
}

/** The relying party's authorize redirect; answers the ReturnUrl the provider gave the sign-in page. */
export async function authorize(browser: Browser): Promise<Started> {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: DEMO_CLIENT,
    response_type: 'code',
    redirect_uri: `${browser.base}/demo/callback`,
    scope: 'openid email profile',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
  });
  const response = await browser.get(`/oidc/auth?${query}`);
  const location = response.headers.get('location') ?? '';
  const returnUrl = new URL(location, browser.base).searchParams.get('ReturnUrl');
  if (!returnUrl) throw new Error(`authorize answered ${response.status} ${location}`);
  return { returnUrl, verifier };
}

/** Follows the resume path to the relying party's callback and redeems the code for tokens. */
export async function finishFlow(browser: Browser, started: Started): Promise<void> {
  let response = await browser.get(started.returnUrl);
  let code: string | null = null;
  for (let hop = 0; hop < 5 && !code; hop++) {
    const location = response.headers.get('location') ?? '';
    const target = new URL(location, browser.base);
    if (target.pathname === '/demo/callback') code = target.searchParams.get('code');
    else response = await browser.get(target.pathname + target.search);
  }
  if (!code) throw new Error('the flow ended without a code');
  const token = await fetch(`${browser.base}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${browser.base}/demo/callback`,
      client_id: DEMO_CLIENT,
      code_verifier: started.verifier,
    }),
  });
  const tokens = (await token.json()) as { id_token?: string };
  if (!tokens.id_token) throw new Error(`token endpoint answered ${token.status}`);
}
