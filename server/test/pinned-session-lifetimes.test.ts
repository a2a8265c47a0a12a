import { loginResponse } from '@keycard/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { databaseAdapter } from '../src/oidc/storage-adapter.ts';
import { clockReading } from '../src/store/clock.ts';
import { testConfig } from './support/app.ts';
import {
  type Authorization,
  authorizationRequest,
  createAccount,
  REDIRECT_URI,
  redeemCode,
  registerTestClient,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/**
 * Cookie and session lifetimes of the sign-in, written out here. oidc-provider reads the time from
 * Date, so the boundary is crossed by setting this process's Date; the app's injected clock reads the
 * same Date, so the stored sessions and interactions (which expire by that clock, exactly, where the
 * provider's own check allows 15 seconds of skew) cross it too.
 */

const PASSWORD = 'Session-Rules-2024!';
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
let serial = 0;

const service = useTestService({
  clock: clockReading(() => Date.now()),
  setUp: ({ db }) => registerTestClient(db),
});
const app = () => service().app;
const db = () => service().db;

afterEach(() => {
  vi.useRealTimers();
});

/** Stops the process's Date at the current whole second and answers it; the timers stay real. */
function freezeTime(): number {
  const start = Math.floor(Date.now() / SECOND) * SECOND;
  vi.useFakeTimers({ toFake: ['Date'], now: start });
  return start;
}

/** A browser that has signed in; answers it with the code of its first sign-in and every response. */
async function signedInBrowser() {
  serial += 1;
  const account = await createAccount(db(), `pinned-session-${serial}@example.com`, PASSWORD);
  const browser = new TestBrowser(app());
  const seen: LightMyRequestResponse[] = [];
  const auth = await startAuthorization(browser);
  await browser.loadSpa();
  const login = await browser.post('/api/login', {
    Username: account.email,
    Password: PASSWORD,
    ReturnUrl: auth.returnUrl,
  });
  expect(loginResponse.parse(login.json()).isAuthenticated).toBe(true);
  let response = await browser.get(auth.returnUrl);
  seen.push(response);
  for (let hop = 0; hop < 5 && !String(response.headers.location).startsWith(REDIRECT_URI); hop++) {
    response = await browser.get(String(response.headers.location));
    seen.push(response);
  }
  const code = new URL(String(response.headers.location)).searchParams.get('code') ?? '';
  return { browser, seen, code, verifier: auth.verifier };
}

/** Where a new authorization request of `browser` leads: straight back with a code, or to sign in. */
async function authorize(browser: TestBrowser): Promise<'signed in' | 'asked to sign in'> {
  const location = String(
    (await browser.get(authorizationRequest({ scope: 'openid' }).path)).headers.location,
  );
  if (location.startsWith(`${REDIRECT_URI}?code=`)) return 'signed in';
  if (location.startsWith('/?ReturnUrl=')) return 'asked to sign in';
  throw new Error(`authorize led to ${location}`);
}

describe('sign-in session: 24 hours', () => {
  it('answers a new authorization without signing in one second before 24 hours, and asks again one second after', async () => {
    const start = freezeTime();
    const early = await signedInBrowser();
    const late = await signedInBrowser();
    const sessionCookie = early.seen.flatMap((r) => r.cookies).find((c) => c.name === '_session');
    expect(sessionCookie?.expires?.getTime()).toBe(start + 24 * HOUR);

    vi.setSystemTime(start + 24 * HOUR - SECOND);
    expect(await authorize(early.browser)).toBe('signed in');
    vi.setSystemTime(start + 24 * HOUR + SECOND);
    expect(await authorize(late.browser)).toBe('asked to sign in');
  });
});

describe('sign-in session: at most 30 days from the sign-in (SESSION_MAX_DAYS), however often it is used', () => {
  it('answers without signing in one second before 30 days, used every 23 hours, and asks again one second after', async () => {
    const DAY = 24 * HOUR;
    const start = freezeTime();
    const { browser } = await signedInBrowser();
    for (let used = 23 * HOUR; used < 30 * DAY; used += 23 * HOUR) {
      vi.setSystemTime(start + used);
      expect(await authorize(browser)).toBe('signed in');
    }
    vi.setSystemTime(start + 30 * DAY - SECOND);
    expect(await authorize(browser)).toBe('signed in');
    vi.setSystemTime(start + 30 * DAY + SECOND);
    expect(await authorize(browser)).toBe('asked to sign in');
  });

  it('is not found once 30 days old, though stored to last longer (as before this rule, 24 hours from its last use)', async () => {
    const DAY = 24 * HOUR;
    const start = freezeTime();
    const adapter = new (databaseAdapter(
      db(),
      clockReading(() => Date.now()),
      {
        sessionLifetimes: testConfig().sessionLifetimes,
      },
    ))('Session');
    const signedInAt = start / SECOND - (30 * DAY) / SECOND;
    const stored = (id: string, loginTs: number) =>
      adapter.upsert(
        id,
        { jti: id, uid: `uid-${id}`, kind: 'Session', accountId: 'a', loginTs },
        (24 * HOUR) / SECOND,
      );
    await stored('thirty-days-old', signedInAt);
    await stored('a-second-younger', signedInAt + 1);
    expect(await adapter.find('thirty-days-old')).toBeUndefined();
    expect(await adapter.findByUid('uid-thirty-days-old')).toBeUndefined();
    expect(await adapter.find('a-second-younger')).toMatchObject({ loginTs: signedInAt + 1 });
  });
});

describe('sign-in page (interaction): 60 minutes', () => {
  it('takes the password one second before 60 minutes and answers an expired sign-in one second after', async () => {
    const start = freezeTime();
    serial += 1;
    const account = await createAccount(db(), `pinned-interaction-${serial}@example.com`, PASSWORD);
    const pages = [new TestBrowser(app()), new TestBrowser(app())];
    const started: Authorization[] = [];
    for (const page of pages) {
      started.push(await startAuthorization(page));
      await page.loadSpa();
    }
    const login = (n: number) =>
      pages[n]?.post('/api/login', {
        Username: account.email,
        Password: PASSWORD,
        ReturnUrl: started[n]?.returnUrl,
      });

    vi.setSystemTime(start + 60 * MINUTE - SECOND);
    const inTime = await login(0);
    expect(inTime?.statusCode).toBe(200);
    expect(loginResponse.parse(inTime?.json()).isAuthenticated).toBe(true);
    vi.setSystemTime(start + 60 * MINUTE + SECOND);
    const tooLate = await login(1);
    expect(tooLate?.statusCode).toBe(409);
    expect(tooLate?.json()).toMatchObject({ code: 'interaction_expired' });
  });

  it('sets its cookies to expire after 60 minutes', async () => {
    const start = freezeTime();
    const browser = new TestBrowser(app());
    const seen: LightMyRequestResponse[] = [];
    const get = browser.get.bind(browser);
    browser.get = async (url) => {
      const answer = await get(url);
      seen.push(answer);
      return answer;
    };
    await startAuthorization(browser);
    const expiries = seen
      .flatMap((r) => r.cookies)
      .filter((c) => c.name === '_interaction' || c.name === '_interaction_resume')
      .map((c) => c.expires?.getTime());
    expect(expiries).toEqual([start + 60 * MINUTE, start + 60 * MINUTE]);
  });
});

describe('authorization code: 60 seconds', () => {
  it('is redeemed one second before 60 seconds and refused one second after', async () => {
    const start = freezeTime();
    const early = await signedInBrowser();
    const late = await signedInBrowser();
    vi.setSystemTime(start + 60 * SECOND - SECOND);
    expect((await redeemCode(app(), early.code, early.verifier)).id_token).toMatch(/^ey/);
    vi.setSystemTime(start + 60 * SECOND + SECOND);
    await expect(redeemCode(app(), late.code, late.verifier)).rejects.toThrow(/token answered 400/);
  });
});

describe('anti-forgery cookie: the browser session', () => {
  it('is set without Max-Age or Expires, so it ends when the browser closes', async () => {
    const response = await app().inject({ method: 'GET', url: '/api/getcsrftoken' });
    const [cookie] = response.cookies.filter((c) => c.name === 'csrf');
    expect(cookie).toBeDefined();
    expect(cookie?.maxAge).toBeUndefined();
    expect(cookie?.expires).toBeUndefined();
  });
});
