import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_EMAIL } from '../../src/demo/demo-setup.ts';
import { startSmtpSink } from '../mail-sink.ts';
import { type OtlpCollector, startOtlpCollector } from './otlp-collector.ts';
import { freePort, type ServiceProcess, seedEmbeddedDatabase, startService } from './service-process.ts';

/** A browser over real HTTP: keeps cookies (paths ignored, enough for one origin), follows nothing. */
class HttpBrowser {
  private readonly cookies = new Map<string, string>();
  private csrfToken = '';

  constructor(private readonly origin: string) {}

  /** Every cookie value the service has set so far: none of them may appear in a span. */
  cookieValues(): string[] {
    return [...this.cookies.values()];
  }

  token(): string {
    return this.csrfToken;
  }

  async request(pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(new URL(pathAndQuery, this.origin), {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      const value = pair.slice(at + 1);
      if (value === '') this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), value);
    }
    return response;
  }

  /** The path and query a redirect answer sends the browser to. */
  async redirectOf(pathAndQuery: string): Promise<string> {
    const response = await this.request(pathAndQuery);
    const location = response.headers.get('location');
    if (response.status !== 303 || location === null) {
      throw new Error(`${pathAndQuery} answered ${response.status}, not a redirect`);
    }
    const url = new URL(location, this.origin);
    return url.pathname + url.search;
  }

  async loadSpa(): Promise<void> {
    this.csrfToken = await (await this.request('/api/getcsrftoken')).text();
  }

  post(pathAndQuery: string, body: string): Promise<Response> {
    return this.request(pathAndQuery, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': this.csrfToken,
        'sec-fetch-site': 'same-origin',
      },
    });
  }
}

export interface TracedJourney {
  readonly collector: OtlpCollector;
  /** What the journey sent or was sent that must never be exported: address, password, code, tokens. */
  readonly secrets: readonly string[];
  /** The sign-in's answer to the wrong password, and whether the mailed code was taken as valid. */
  readonly answers: { readonly login: unknown; readonly codeValid: unknown };
  /** Stops the service with SIGTERM and answers its exit code. */
  stop(): Promise<number | null>;
  dispose(): Promise<void>;
}

/**
 * Starts the compiled service with tracing to an in-process collector and mail to an SMTP sink, then
 * drives what an operator wants to see in traces: a sign-in through the demo relying party with a
 * wrong password, a body that is not JSON, a forgot-password mail, and its link opened and checked.
 */
export async function runTracedJourney(env: NodeJS.ProcessEnv): Promise<TracedJourney> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'keycard-tracing-'));
  if (env.DATABASE_URL === undefined) await seedEmbeddedDatabase(dataDir);
  const collector = await startOtlpCollector();
  const sink = await startSmtpSink();
  let service: ServiceProcess | undefined;
  const dispose = async () => {
    if (service?.child.exitCode === null) service.child.kill('SIGKILL');
    await Promise.all([collector.close(), sink.close()]);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const port = await freePort();
    service = startService({
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: String(port),
      SMTP_URL: sink.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // Nothing is exported on the way: what arrives, arrives because a stop exports what is left.
      OTEL_BSP_SCHEDULE_DELAY: '600000',
      ...env,
    });
    await service.waitFor(/Keycard listening on/);
    const browser = new HttpBrowser(`http://127.0.0.1:${port}`);
    const wrongPassword = `Wrong-${crypto.randomUUID()}`;

    // The demo relying party sends the browser to the provider, which sends it on to sign in.
    const authorize = await browser.redirectOf('/demo/login');
    const signIn = new URL(await browser.redirectOf(authorize), 'http://keycard.test');
    const returnUrl = signIn.searchParams.get('ReturnUrl') ?? '';
    await browser.loadSpa();
    const login = await browser.post(
      '/api/login',
      JSON.stringify({ Username: DEMO_EMAIL, Password: wrongPassword, ReturnUrl: returnUrl }),
    );
    // A failed request: its span is marked as failed, and the body it could not read goes nowhere.
    await browser.post('/api/login', `${wrongPassword} ${DEMO_EMAIL}`);

    await browser.post('/api/forgotpassword', JSON.stringify({ email: DEMO_EMAIL }));
    const [mail] = await sink.waitFor(1);
    const link = mail?.parsed.text?.match(/https?:\/\/\S+\/resetPassword\/(\d+)\/(\S+)/);
    const [, type = '', code = ''] = link ?? [];
    await browser.request(`/resetPassword/${type}/${code}?code=${code}`);
    const checked = await browser.post(
      '/api/CheckVerification',
      JSON.stringify({ verificationCode: decodeURIComponent(code), verificationType: Number(type) }),
    );

    const authorizeQuery = new URL(authorize, 'http://keycard.test').searchParams;
    const secrets = [
      DEMO_EMAIL,
      encodeURIComponent(DEMO_EMAIL),
      wrongPassword,
      code,
      decodeURIComponent(code),
      returnUrl,
      browser.token(),
      ...browser.cookieValues(),
      ...['state', 'nonce', 'code_challenge'].map((name) => authorizeQuery.get(name) ?? ''),
    ];
    const running = service;
    return {
      collector,
      // A cookie may be a flag such as 1, which is no secret and would match any number.
      secrets: secrets.filter((secret) => secret.length >= 8),
      answers: {
        login: await login.json(),
        codeValid: ((await checked.json()) as { isValid?: unknown }).isValid,
      },
      async stop() {
        running.child.kill('SIGTERM');
        return running.exited();
      },
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}
