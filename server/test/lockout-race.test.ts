import { loginResponse } from '@keycard/contract';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { failureCount, findAccountById } from '../src/accounts/account-repository.ts';
import { identifierHash } from '../src/accounts/identifiers.ts';
import { type HashVerifier, verifyArgon2 } from '../src/accounts/password-hash.ts';
import { auditEvents } from '../src/store/tables/index.ts';
import {
  createAccount,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/**
 * DESIGN §2 Login against a burst: with LOCKOUT_THRESHOLD 4, no number of parallel sign-ins checks
 * more than 4 passwords against the account, and the right password is refused once it is locked.
 * Every password check is held until the burst is in, so all attempts overlap as far as they can.
 */

const PASSWORD = 'Correct-Horse-42';
/** 100 interactions set up and 100 argon2 checks on a busy machine. */
const BURST_MS = 180_000;
const LOCKED = { isAuthenticated: false, redirectUrl: null, verificationType: 3, verificationCode: null };

/** argon2 itself, every call seen and held until `open()`: what lets a burst overlap completely. */
function heldVerifier() {
  const verified: string[] = [];
  const waiters = new Set<() => void>();
  let open: () => void = () => {};
  let gate = Promise.resolve();
  const verifyHash: HashVerifier = async (storedHash, password) => {
    verified.push(storedHash);
    for (const wake of waiters) wake();
    await gate;
    return verifyArgon2(storedHash, password);
  };
  return {
    verifyHash,
    verified,
    /** From now on every check waits for `open()`. */
    hold() {
      gate = new Promise((resolve) => {
        open = resolve;
      });
      return () => open();
    },
    /** Resolves once `count` checks have begun in total; fails after a deadline. */
    calls(count: number, timeoutMs = 60_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (verified.length < count) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`expected ${count} password checks, saw ${verified.length}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}

const verifier = heldVerifier();
const service = useTestService({
  env: { LOCKOUT_THRESHOLD: '4', LOCKOUT_MINUTES: '60' },
  verifyHash: verifier.verifyHash,
  setUp: ({ db }) => registerTestClient(db),
});
const db = () => service().db;

/** A browser on the sign-in page of its own live interaction, ready to post /api/login. */
async function signInPage() {
  const browser = new TestBrowser(service().app);
  const { returnUrl } = await startAuthorization(browser);
  await browser.loadSpa();
  const login = async (email: string, password: string) => {
    const response = await browser.post('/api/login', {
      Username: email,
      Password: password,
      ReturnUrl: returnUrl,
    });
    expect(response.statusCode).toBe(200);
    return loginResponse.parse(response.json());
  };
  return { browser, returnUrl, login };
}

async function signInPages(count: number) {
  const pages = [];
  // A few at a time: the interactions are set up before the burst, not raced.
  for (let n = 0; n < count; n += 10)
    pages.push(...(await Promise.all(Array.from({ length: 10 }, signInPage))));
  return pages.slice(0, count);
}

describe('the lockout against 100 parallel sign-ins (LOCKOUT_THRESHOLD 4)', () => {
  it(
    'checks at most 4 passwords against the account and refuses the right one sent into the burst',
    async () => {
      const email = 'burst@example.com';
      const account = await createAccount(db(), email, PASSWORD);
      const accountHash = (await findAccountById(db(), account.id))?.passwordHash;
      expect(accountHash).toMatch(/^\$argon2id\$/);
      const pages = await signInPages(100);
      const right = pages[99];
      if (!right) throw new Error('no page for the right password');
      const before = verifier.verified.length;

      const open = verifier.hold();
      const wrong = pages.slice(0, 99).map((page, n) => page.login(email, `Wrong-Guess-${n}-xx`));
      // The right password goes in while all 99 wrong ones are being checked, none finished yet.
      await verifier.calls(before + 99);
      const rightAnswer = right.login(email, PASSWORD);
      await verifier.calls(before + 100);
      open();
      const answers = await Promise.all([...wrong, rightAnswer]);

      const checks = verifier.verified.slice(before);
      expect(checks).toHaveLength(100); // every attempt checks exactly one hash, its own or the dummy
      // At most 4; here exactly the 4 wrong passwords the threshold admits, the right one not among them.
      expect(checks.filter((hash) => hash === accountHash)).toHaveLength(4);
      expect(answers.some((answer) => answer.isAuthenticated)).toBe(false);
      expect(await rightAnswer).toEqual(LOCKED);
      await expect(resumeToCode(right.browser, right.returnUrl)).rejects.toThrow(/resume ended/);
      const logins = await db()
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.event, 'login'), eq(auditEvents.accountId, account.id)));
      expect(logins.filter((row) => row.outcome === 'success')).toHaveLength(0);
      expect(logins.filter((row) => row.outcome === 'failure')).toHaveLength(4);
      expect(logins.filter((row) => row.outcome === 'refused')).toHaveLength(96);
      expect(await failureCount(db(), identifierHash(email))).toBe(4);
      expect(await service().mails('unlock', email)).toHaveLength(1);

      // Locked: the right password alone is refused too, without being checked against the account.
      const after = verifier.verified.length;
      const page = await signInPage();
      expect(await page.login(email, PASSWORD)).toEqual(LOCKED);
      expect(verifier.verified.slice(after)).toHaveLength(1);
      expect(verifier.verified.at(-1)).not.toBe(accountHash);
    },
    BURST_MS,
  );

  it(
    'checks at most 4 passwords of an unknown identifier’s burst too, and locks it',
    async () => {
      const email = 'nobody-burst@example.com';
      const pages = await signInPages(100);
      const before = verifier.verified.length;
      const open = verifier.hold();
      const answers = pages.map((page, n) => page.login(email, `Wrong-Guess-${n}-xx`));
      await verifier.calls(before + 100);
      open();
      const bodies = await Promise.all(answers);
      // The first three failures answer as failures, the fourth locks, and the other 96 find it locked.
      expect(bodies.filter((body) => body.verificationType === 0)).toHaveLength(3);
      expect(bodies.filter((body) => body.verificationType === 3)).toHaveLength(97);
      expect(await failureCount(db(), identifierHash(email))).toBe(4);
    },
    BURST_MS,
  );

  it('signs in with the right password sent among 2 wrong ones, and starts the count afresh', async () => {
    const email = 'within@example.com';
    await createAccount(db(), email, PASSWORD);
    const pages = await signInPages(3);
    const before = verifier.verified.length;
    const open = verifier.hold();
    const answers = pages.map((page, n) => page.login(email, n === 1 ? PASSWORD : `Wrong-Guess-${n}-xx`));
    await verifier.calls(before + 3);
    open();
    const bodies = await Promise.all(answers);
    expect(bodies.map((body) => [body.isAuthenticated, body.verificationType])).toEqual([
      [false, 0],
      [true, 0],
      [false, 0],
    ]);
    expect(await failureCount(db(), identifierHash(email))).toBe(0);
  });

  it('signs in the right password checked while 3 wrong ones counted after it lock the address, and the lock stands', async () => {
    // SECURITY.md "A success lifts only its own lock": the right one is counted 1st, the wrong ones
    // 2nd to 4th while it is checked, and the 4th locks; the sign-in goes on, the guessing stays locked.
    const email = 'overtaken@example.com';
    await createAccount(db(), email, PASSWORD);
    const [right, ...wrong] = await signInPages(4);
    if (!right) throw new Error('no page for the right password');
    const before = verifier.verified.length;
    const open = verifier.hold();
    const rightAnswer = right.login(email, PASSWORD);
    await verifier.calls(before + 1);
    const wrongAnswers = wrong.map((page, n) => page.login(email, `Wrong-Guess-${n}-xx`));
    await verifier.calls(before + 4);
    open();
    expect(await rightAnswer).toMatchObject({ isAuthenticated: true });
    // Whichever of them was counted 4th took the lock.
    const types = (await Promise.all(wrongAnswers)).map((body) => body.verificationType);
    expect(types.sort()).toEqual([0, 0, 3]);
    await resumeToCode(right.browser, right.returnUrl);
    expect(await failureCount(db(), identifierHash(email))).toBe(4);
    expect(await service().mails('unlock', email)).toHaveLength(1);
    expect(await (await signInPage()).login(email, PASSWORD)).toEqual(LOCKED);
  });

  it('admits 4 of 8 parallel sign-ins with the right password, refuses the others as locked, and leaves no lock behind', async () => {
    // SECURITY.md "Parallel sign-ins with the right password": counted before checked, so the fourth
    // takes the lock; its success lifts it (the others' find it locked and clear nothing), and no
    // unlock mail goes out.
    const email = 'eight-at-once@example.com';
    await createAccount(db(), email, PASSWORD);
    const pages = await signInPages(8);
    const before = verifier.verified.length;
    const open = verifier.hold();
    const answers = pages.map((page) => page.login(email, PASSWORD));
    await verifier.calls(before + 8);
    open();
    const bodies = await Promise.all(answers);
    expect(bodies.filter((body) => body.isAuthenticated)).toHaveLength(4);
    expect(bodies.filter((body) => !body.isAuthenticated)).toEqual([LOCKED, LOCKED, LOCKED, LOCKED]);
    expect(await failureCount(db(), identifierHash(email))).toBe(0);
    expect(await service().mails('unlock', email)).toHaveLength(0);
    const next = await signInPage();
    expect((await next.login(email, PASSWORD)).isAuthenticated).toBe(true);
  });
});
