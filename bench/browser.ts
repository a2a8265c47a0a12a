import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';

/** What the benchmark reads of an answer. */
export interface Answer {
  status: number;
  location: string | null;
  text: string;
}

/**
 * One keep-alive agent for every simulated browser. The load generator shares the cores with the
 * service, so it uses node:http, which costs a fraction of what fetch costs per request (BENCHMARKS.md).
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function send(url: URL, method: string, headers: http.OutgoingHttpHeaders, body?: string) {
  return new Promise<{ answer: Answer; setCookies: string[] }>((resolve, reject) => {
    const request = http.request(url, { method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          answer: {
            status: response.statusCode ?? 0,
            location: response.headers.location ?? null,
            text: Buffer.concat(chunks).toString('utf8'),
          },
          setCookies: response.headers['set-cookie'] ?? [],
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** A minimal browser for one origin: cookies (paths ignored) and manual redirects. */
export class Browser {
  private readonly cookies = new Map<string, string>();
  csrfToken = '';

  constructor(readonly base: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keep(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async get(url: string): Promise<Answer> {
    const { answer, setCookies } = await send(new URL(url, this.base), 'GET', {
      cookie: this.cookieHeader(),
      accept: 'text/html',
    });
    this.keep(setCookies);
    return answer;
  }

  async post(path: string, body: unknown): Promise<Answer> {
    const { answer, setCookies } = await send(
      new URL(path, this.base),
      'POST',
      {
        cookie: this.cookieHeader(),
        'content-type': 'application/json',
        'x-csrf-token': this.csrfToken,
        'sec-fetch-site': 'same-origin',
      },
      JSON.stringify(body),
    );
    this.keep(setCookies);
    return answer;
  }

  /** A form post without cookies, as a relying party's back channel sends it. */
  async postForm(path: string, form: URLSearchParams): Promise<Answer> {
    const { answer } = await send(
      new URL(path, this.base),
      'POST',
      { 'content-type': 'application/x-www-form-urlencoded' },
      form.toString(),
    );
    return answer;
  }

  async loadSpa(): Promise<void> {
    this.csrfToken = (await this.get('/api/getcsrftoken')).text;
  }
}

export const DEMO_CLIENT = 'keycard-demo';
/** The account every benchmark signs in with (the demo's, or the one registered in its place). */
export const DEMO_EMAIL = 'demo@keycard.example';

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
  const location = response.location ?? '';
  const returnUrl = new URL(location, browser.base).searchParams.get('ReturnUrl');
  if (!returnUrl) throw new Error(`authorize answered ${response.status} ${location}`);
  return { returnUrl, verifier };
}

/** A login about to be sent: its browser, with a live interaction of its own, and its body. */
export interface PreparedLogin {
  browser: Browser;
  body: { Username: string; Password: string; ReturnUrl: string };
}

/** `count` logins, each in its own browser with its own live interaction (a login needs one). */
export async function prepareLogins(
  base: string,
  count: number,
  credentials: (i: number) => [username: string, password: string],
): Promise<PreparedLogin[]> {
  const logins: PreparedLogin[] = [];
  for (let i = 0; i < count; i++) {
    const browser = new Browser(base);
    await browser.loadSpa();
    const { returnUrl } = await authorize(browser);
    const [Username, Password] = credentials(i);
    logins.push({ browser, body: { Username, Password, ReturnUrl: returnUrl } });
  }
  return logins;
}

/** Follows the resume path to the relying party's callback; answers the authorization code. */
export async function resume(browser: Browser, started: Started): Promise<string> {
  let response = await browser.get(started.returnUrl);
  let code: string | null = null;
  for (let hop = 0; hop < 5 && !code; hop++) {
    const location = response.location ?? '';
    const target = new URL(location, browser.base);
    if (target.pathname === '/demo/callback') code = target.searchParams.get('code');
    else response = await browser.get(target.pathname + target.search);
  }
  if (!code) throw new Error('the flow ended without a code');
  return code;
}

/** Redeems the code at the token endpoint, as the relying party's back channel does (PKCE). */
export async function redeem(browser: Browser, started: Started, code: string): Promise<void> {
  const token = await browser.postForm(
    '/oidc/token',
    new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${browser.base}/demo/callback`,
      client_id: DEMO_CLIENT,
      code_verifier: started.verifier,
    }),
  );
  const tokens = JSON.parse(token.text) as { id_token?: string };
  if (!tokens.id_token) throw new Error(`token endpoint answered ${token.status}`);
}

/** Follows the resume path to the relying party's callback and redeems the code for tokens. */
export async function finishFlow(browser: Browser, started: Started): Promise<void> {
  await redeem(browser, started, await resume(browser, started));
}

/** The requests of a full code flow, in order, as `fullFlow` names them when each is done. */
export const FLOW_STEPS = [
  'GET /api/getcsrftoken',
  'GET /oidc/auth',
  'POST /api/CheckUsername',
  'POST /api/login',
  'GET /oidc/auth/:uid (resume)',
  'POST /oidc/token',
] as const;
export type FlowStep = (typeof FLOW_STEPS)[number];

/**
 * One full code flow of the demo account in a new simulated browser, from the SPA's token to the
 * tokens; `done` is called as each step ends. Throws when the login is refused.
 */
export async function fullFlow(
  service: { readonly base: string; readonly password: string; readonly subject: string },
  done: (step: FlowStep) => void = () => {},
): Promise<void> {
  const browser = new Browser(service.base);
  await browser.loadSpa();
  done('GET /api/getcsrftoken');
  const started = await authorize(browser);
  done('GET /oidc/auth');
  await browser.post('/api/CheckUsername', { Username: DEMO_EMAIL, ReturnUrl: started.returnUrl });
  done('POST /api/CheckUsername');
  const login = await browser.post('/api/login', {
    Username: DEMO_EMAIL,
    Password: service.password,
    ReturnUrl: started.returnUrl,
  });
  if (!login.text.includes('"isAuthenticated":true')) {
    throw new Error(`${service.subject}: full flow: login failed: ${login.status} ${login.text}`);
  }
  done('POST /api/login');
  const code = await resume(browser, started);
  done('GET /oidc/auth/:uid (resume)');
  await redeem(browser, started, code);
  done('POST /oidc/token');
}
