import { loginResponse } from '@keycard/contract';
import { type Algorithm, hash } from '@node-rs/argon2';
import { and, asc, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  failureCount,
  findAccountById,
  setDisabled,
  setMustChangePassword,
  storePassword,
} from '../src/accounts/account-repository.ts';
import { identifierHash } from '../src/accounts/identifiers.ts';
import { hashPassword, needsRehash } from '../src/accounts/password-hash.ts';
import { auditEvents, verificationCodes } from '../src/store/tables/index.ts';
import { createAccount, registerTestClient, startAuthorization, TestBrowser } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

const PASSWORD = 'Correct-Horse-42';
const FAILED = { isAuthenticated: false, redirectUrl: null, verificationType: 0, verificationCode: null };
const LOCKED = { isAuthenticated: false, redirectUrl: null, verificationType: 3, verificationCode: null };

const service = useTestService({
  env: { LOCKOUT_THRESHOLD: '5', LOCKOUT_MINUTES: '60' },
  setUp: ({ db }) => registerTestClient(db),
});
const app = () => service().app;
const db = () => service().db;

/** One sign-in attempt from a fresh browser with its own live interaction. */
async function login(email: string, password: string) {
  const browser = new TestBrowser(app());
  const { returnUrl } = await startAuthorization(browser);
  await browser.loadSpa();
  const response = await browser.post('/api/login', {
    Username: email,
    Password: password,
    ReturnUrl: returnUrl,
  });
  expect(response.statusCode).toBe(200);
  return { body: loginResponse.parse(response.json()), raw: response.body, returnUrl };
}

describe('/api/login (DESIGN §2 Login)', () => {
  it('answers a wrong password and an unknown user with the same body', async () => {
    await createAccount(db(), 'wrong@example.com', PASSWORD);
    const wrong = await login('wrong@example.com', 'Not-The-Password-1');
    const unknown = await login('nobody@example.com', 'Not-The-Password-1');
    expect(wrong.body).toEqual(FAILED);
    expect(unknown.raw).toBe(wrong.raw);
  });

  it('refuses a disabled account with the answer an unknown user gets, even with the right password', async () => {
    const account = await createAccount(db(), 'disabled@example.com', PASSWORD);
    await setDisabled(db(), account.id, true);
    expect((await login('disabled@example.com', PASSWORD)).body).toEqual(FAILED);
  });

  it('refuses an account without a password (invited, never set)', async () => {
    await createAccount(db(), 'invited@example.com', null);
    const invited = await login('invited@example.com', 'Any-Password-123');
    const unknown = await login('nobody-at-all@example.com', 'Any-Password-123');
    expect(invited.body).toEqual(FAILED);
    expect(invited.raw).toBe(unknown.raw);
  });

  it('locks known and unknown identifiers alike after the threshold, and stays locked for the right password', async () => {
    await createAccount(db(), 'locked@example.com', PASSWORD);
    for (const email of ['locked@example.com', 'ghost@example.com']) {
      for (let attempt = 1; attempt <= 4; attempt++)
        expect((await login(email, `Wrong-${attempt}-xx`)).body).toEqual(FAILED);
      expect((await login(email, 'Wrong-5-xxxxx')).body).toEqual(LOCKED);
      expect((await login(email, 'Wrong-6-xxxxx')).body).toEqual(LOCKED);
    }
    expect((await login('LOCKED@example.com', PASSWORD)).body).toEqual(LOCKED);
  });

  it('starts the count afresh after a success (N−1 failures, then success)', async () => {
    await createAccount(db(), 'reset@example.com', PASSWORD);
    for (let attempt = 1; attempt <= 4; attempt++) await login('reset@example.com', 'Wrong-password-1');
    expect(await failureCount(db(), identifierHash('reset@example.com'))).toBe(4);
    expect((await login('reset@example.com', PASSWORD)).body.isAuthenticated).toBe(true);
    expect(await failureCount(db(), identifierHash('reset@example.com'))).toBe(0);
    expect((await login('reset@example.com', 'Wrong-password-1')).body).toEqual(FAILED);
  });

  it('never authenticates 100 parallel wrong logins and locks exactly once with a consistent counter', async () => {
    const account = await createAccount(db(), 'storm@example.com', PASSWORD);
    const results = await Promise.all(
      Array.from({ length: 100 }, () => login('storm@example.com', 'Wrong-password-1')),
    );
    expect(results.some((r) => r.body.isAuthenticated)).toBe(false);
    expect(results.every((r) => r.body.verificationType === 0 || r.body.verificationType === 3)).toBe(true);
    const counted = await failureCount(db(), identifierHash('storm@example.com'));
    const answeredLockedAfterCounting = results.filter((r) => r.body.verificationType === 3).length;
    expect(counted).toBeGreaterThanOrEqual(5);
    expect(counted).toBeLessThanOrEqual(100);
    expect(100 - answeredLockedAfterCounting).toBeLessThanOrEqual(counted);
    // Every failure that was counted is one failure on record, and none was counted twice.
    const failures = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'login'), eq(auditEvents.accountId, account.id)));
    expect(failures.filter((row) => row.outcome === 'failure')).toHaveLength(counted);
    expect(failures.filter((row) => row.outcome === 'refused')).toHaveLength(100 - counted);
    const locks = await db().select().from(auditEvents).where(eq(auditEvents.event, 'lock'));
    expect(
      locks.filter((row) => row.accountId === account.id && row.outcome === 'success' && !row.detail),
    ).toHaveLength(1);
  });

  it('records a success, a failure and a refusal while locked, with account and address, never the password', async () => {
    const account = await createAccount(db(), 'audited@example.com', PASSWORD);
    await login('audited@example.com', PASSWORD);
    for (let attempt = 1; attempt <= 5; attempt++) await login('audited@example.com', 'Wrong-password-9');
    await login('audited@example.com', PASSWORD);
    const rows = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'login'), eq(auditEvents.accountId, account.id)))
      .orderBy(asc(auditEvents.id));
    expect(rows.map((row) => row.outcome)).toEqual([
      'success',
      'failure',
      'failure',
      'failure',
      'failure',
      'failure',
      'refused',
    ]);
    expect(rows.at(-1)?.detail).toEqual({ reason: 'locked' });
    expect(rows.every((row) => row.ip === '127.0.0.1')).toBe(true);
    expect(JSON.stringify(rows)).not.toMatch(/Correct-Horse|Wrong-password/);
  });

  it('re-hashes a password stored with outdated argon2 parameters at a successful sign-in', async () => {
    const account = await createAccount(db(), 'old-hash@example.com', null);
    const outdated = await hash(PASSWORD, {
      algorithm: 2 as Algorithm,
      memoryCost: 7168,
      timeCost: 5,
      parallelism: 1,
    });
    await storePassword(db(), account.id, outdated, new Date());
    expect((await login('old-hash@example.com', PASSWORD)).body.isAuthenticated).toBe(true);
    const stored = await findAccountById(db(), account.id);
    expect(needsRehash(outdated)).toBe(true);
    expect(stored?.passwordHash).not.toBe(outdated);
    expect(needsRehash(stored?.passwordHash ?? '')).toBe(false);
    expect((await login('old-hash@example.com', PASSWORD)).body.isAuthenticated).toBe(true);
  });

  it('answers an expired password with type 2 and a code only after the right password', async () => {
    const account = await createAccount(db(), 'expired@example.com', PASSWORD);
    await setMustChangePassword(db(), account.id);
    expect((await login('expired@example.com', 'Wrong-password-1')).body).toEqual(FAILED);
    const right = await login('expired@example.com', PASSWORD);
    expect(right.body).toMatchObject({ isAuthenticated: false, redirectUrl: null, verificationType: 2 });
    expect(right.body.verificationCode).toMatch(/^[\w-]{43}$/);
    const [stored] = await db()
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.accountId, account.id));
    expect(stored?.verificationType).toBe(2);
    expect(stored?.codeHash).not.toContain(right.body.verificationCode);
  });

  it('refuses a ReturnUrl that is not this browser’s live interaction, before looking at the password', async () => {
    await createAccount(db(), 'fuzz@example.com', PASSWORD);
    const browser = new TestBrowser(app());
    const { returnUrl } = await startAuthorization(browser);
    await browser.loadSpa();
    const stranger = new TestBrowser(app());
    await stranger.loadSpa();
    const stolen = await stranger.post('/api/login', {
      Username: 'fuzz@example.com',
      Password: PASSWORD,
      ReturnUrl: returnUrl,
    });
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json()).toMatchObject({ code: 'interaction_expired' });

    const hostile = [
      '//evil.test/oidc/auth/x',
      '/\\evil.test',
      'https:evil.test',
      'javascript:alert(1)',
      '/%2F%2Fevil.test',
      `${returnUrl}\r\nLocation: //evil`,
    ];
    const arbitrary = fc.string({ maxLength: 60 });
    for (const candidate of [...hostile, ...fc.sample(arbitrary, 40)]) {
      const response = await browser.post('/api/login', {
        Username: 'fuzz@example.com',
        Password: PASSWORD,
        ReturnUrl: candidate,
      });
      if (response.statusCode === 200) {
        const redirectUrl = loginResponse.parse(response.json()).redirectUrl;
        expect(new URL(redirectUrl ?? '/', 'https://keycard.test').origin).toBe('https://keycard.test');
      } else {
        expect([400, 409]).toContain(response.statusCode);
      }
    }
  });
});

describe('/api/login with PASSWORD_MAX_AGE_DAYS (DESIGN §2 Login)', () => {
  const agedService = useTestService({
    env: { PASSWORD_MAX_AGE_DAYS: '1' },
    setUp: ({ db }) => registerTestClient(db),
  });
  const aged = () => agedService().app;

  it('answers type 2 and a code for a password older than the limit, after the right password only', async () => {
    const account = await createAccount(agedService().db, 'aged@example.com', null);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    await storePassword(agedService().db, account.id, await hashPassword(PASSWORD), twoDaysAgo);
    const attempt = async (password: string) => {
      const browser = new TestBrowser(aged());
      const { returnUrl } = await startAuthorization(browser);
      await browser.loadSpa();
      const response = await browser.post('/api/login', {
        Username: account.email,
        Password: password,
        ReturnUrl: returnUrl,
      });
      return loginResponse.parse(response.json());
    };
    expect(await attempt('Wrong-password-1')).toEqual(FAILED);
    const right = await attempt(PASSWORD);
    expect(right).toMatchObject({ isAuthenticated: false, verificationType: 2 });
    expect(right.verificationCode).toMatch(/^[\w-]{43}$/);
    // A fresh password is within the limit.
    await storePassword(agedService().db, account.id, await hashPassword(PASSWORD), new Date());
    expect((await attempt(PASSWORD)).isAuthenticated).toBe(true);
  });
});
