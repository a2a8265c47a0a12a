import { Agent, type IncomingHttpHeaders, request } from 'node:http';

/** One HTTP answer as the browser got it. */
export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The Location header, or '' when there is none. */
  readonly location: string;
  json<T>(): T;
}

/** What every simulated browser of a run saw, summed. */
export class Tally {
  requests = 0;
  /**
   * Answers lost: made up by the load balancer (502/503/504) because the instance died with the
   * request, or a broken connection. Each was sent again.
   */
  lostAnswers = 0;
}

/** How often one request is sent before the browser gives up: a dead instance costs one. */
const ATTEMPTS = 4;
const LOAD_BALANCER_ERROR = /^<html><body><h1>50[234] /;

/** HAProxy's own error pages (the instance died, or none answered); Keycard answers errors in JSON. */
function madeUpByBalancer(answer: Answer): boolean {
  return [502, 503, 504].includes(answer.status) && LOAD_BALANCER_ERROR.test(answer.body);
}

/**
 * A browser as the SPA drives it (SPEC §7), talking plain HTTP to the load balancer from a client
 * address of its own (a loopback address, so per-IP limits count it apart): a cookie jar for the one
 * origin, the CSRF token of /api/getcsrftoken, no redirects followed on its own. A request whose answer
 * was lost is sent again, as a person would click again; `lost` counts them for the flow.
 */
export class FleetBrowser {
  private readonly cookies = new Map<string, string>();
  /** Kept-alive connections, as a browser keeps them: HAProxy still balances every request on its own. */
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 6 });
  private token = '';
  lost = 0;

  /** `headers` go with every request, e.g. one a client forges to test the load balancer. */
  constructor(
    private readonly origin: string,
    readonly ip: string,
    private readonly tally: Tally,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** Closes the browser's connections. */
  close(): void {
    this.agent.destroy();
  }

  async loadSpa(): Promise<void> {
    this.token = (await this.get('/api/getcsrftoken')).body;
  }

  get(path: string): Promise<Answer> {
    return this.send('GET', path, { accept: 'text/html,application/xhtml+xml' });
  }

  /** A JSON call of the SPA (SPEC §7): CSRF header, same-origin fetch metadata. */
  post(path: string, payload: unknown): Promise<Answer> {
    return this.send(
      'POST',
      path,
      {
        'content-type': 'application/json',
        'x-csrf-token': this.token,
        'sec-fetch-site': 'same-origin',
        origin: this.origin,
      },
      JSON.stringify(payload),
    );
  }

  /** A relying party's back-channel call (the token endpoint): a form, no cookies of this browser. */
  form(path: string, fields: Record<string, string>): Promise<Answer> {
    const body = new URLSearchParams(fields).toString();
    return this.send('POST', path, { 'content-type': 'application/x-www-form-urlencoded' }, body, false);
  }

  private async send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
    withCookies = true,
  ): Promise<Answer> {
    for (let attempt = 1; ; attempt++) {
      this.tally.requests += 1;
      const cookie = withCookies ? this.cookieHeader() : '';
      const answer = await this.once(method, path, { ...headers, ...(cookie ? { cookie } : {}) }, body).catch(
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      );
      if (!(answer instanceof Error) && !madeUpByBalancer(answer)) {
        if (withCookies) this.keepCookies(answer.headers['set-cookie'] ?? []);
        return answer;
      }
      this.tally.lostAnswers += 1;
      this.lost += 1;
      if (attempt === ATTEMPTS) {
        const reason = answer instanceof Error ? answer.message : `${answer.status} ${answer.body}`;
        throw new Error(`${method} ${path}: no answer after ${ATTEMPTS} attempts (${reason})`);
      }
    }
  }

  private once(method: string, path: string, headers: Record<string, string>, body?: string) {
    const url = new URL(path, this.origin);
    return new Promise<Answer>((resolve, reject) => {
      const outgoing = request(
        url,
        { method, headers: { ...this.headers, ...headers }, localAddress: this.ip, agent: this.agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: text,
              location: response.headers.location ?? '',
              json: <T>() => JSON.parse(text) as T,
            });
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Paths and lifetimes are not tracked: every cookie of this origin goes with every request. */
  private keepCookies(setCookies: readonly string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', setting = ''] = attribute.trim().split('=');
        if (key.toLowerCase() === 'max-age') return Number(setting) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(setting) <= Date.now();
        return false;
      });
      if (value === '' || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
