import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { setDisabled, storePassword } from '../src/accounts/account-repository.ts';
import { attemptLogin, createLoginDeps, type LoginDeps } from '../src/accounts/login.ts';
import { hashPassword, verifyArgon2 } from '../src/accounts/password-hash.ts';
import { createRecoveryDeps } from '../src/recovery/create-recovery-deps.ts';
import { unlockAccount } from '../src/recovery/unlock-account.ts';
import { queueUnlockMail } from '../src/recovery/unlock-mail.ts';
import { manualClock } from '../src/store/clock.ts';
import { accounts, auditEvents, upstreamDomains, upstreamProviders } from '../src/store/tables/index.ts';
import { codeOf, freshIp, recordingMail, STRONG } from './recovery-kit.ts';
import { testConfig } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';
import { manualTimer, settle } from './support/manual-timer.ts';
import { createAccount } from './support/oidc-flow.ts';

/**
 * The numbers of DESIGN §2 Login, written out here and crossed with the injected clock, on the rules
 * the service builds from its configuration (createLoginDeps). Nothing is read back from the code.
 */

const testDb = useTestDatabase();
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
/** DESIGN §3: argon2id at the OWASP row chosen by measurement (BENCHMARKS.md), m=12288 KiB t=3 p=1. */
const ARGON2ID_HASH = /^\$argon2id\$v=19\$m=12288,t=3,p=1\$/;
let serial = 0;

/**
 * The service's sign-in on the test database, its clock stepped by hand, every argon2 verify seen;
 * `sleep`, the answer floor's timer, the real one unless given.
 */
function signIn(env: NodeJS.ProcessEnv = {}, sleep?: LoginDeps['sleep']) {
  const config = testConfig(env);
  const db = testDb().db;
  const clock = manualClock();
  const mail = recordingMail();
  const recovery = createRecoveryDeps({ config, db, mail, clock });
  const verified: string[] = [];
  const deps: LoginDeps = {
    ...createLoginDeps(config, {
      db,
      clock,
      onLocked: queueUnlockMail({ ...recovery, clockIn: () => clock }),
      sleep,
    }),
    // The real argon2 verify, counted: the rule is that every attempt runs exactly one.
    verifyHash: (storedHash, password) => {
      verified.push(storedHash);
      return verifyArgon2(storedHash, password);
    },
  };
  const attempt = async (email: string, password: string) => {
    verified.length = 0;
    const result = await attemptLogin(deps, { email, password, ip: freshIp(), language: 'en' });
    return { outcome: result.outcome, verified: [...verified] };
  };
  return { attempt, clock, mail, recovery };
}

async function account(password: string | null = STRONG) {
  serial += 1;
  return createAccount(testDb().db, `pinned-login-${serial}@example.com`, password);
}

describe('the dummy hash (DESIGN §2 Login: timing does not tell accounts apart)', () => {
  it('verifies exactly one argon2id hash for an unknown identifier, and it is not an account’s', async () => {
    const { attempt } = signIn();
    const { outcome, verified } = await attempt('nobody-at-all@example.com', STRONG);
    expect(outcome).toBe('failed');
    expect(verified).toHaveLength(1);
    expect(verified[0]).toMatch(ARGON2ID_HASH);
  });

  it('verifies exactly one argon2id hash for an account without a password', async () => {
    const { attempt } = signIn();
    const invited = await account(null);
    const { outcome, verified } = await attempt(invited.email, STRONG);
    expect(outcome).toBe('failed');
    expect(verified).toHaveLength(1);
    expect(verified[0]).toMatch(ARGON2ID_HASH);
  });

  it('verifies exactly one hash for a known account, right or wrong: its own', async () => {
    const { attempt } = signIn();
    const known = await account();
    const wrong = await attempt(known.email, 'Not-The-Password-1');
    const right = await attempt(known.email, STRONG);
    expect([wrong.outcome, right.outcome]).toEqual(['failed', 'authenticated']);
    expect(wrong.verified).toHaveLength(1);
    expect(right.verified).toEqual(wrong.verified);
    expect(right.verified[0]).toMatch(ARGON2ID_HASH);
  });

  it('verifies exactly one hash, the dummy, while an identifier is locked, even for the right password', async () => {
    const { attempt } = signIn();
    const known = await account();
    const [ownHash] = (await attempt(known.email, 'Wrong-1-password')).verified;
    for (let n = 2; n <= 5; n++) await attempt(known.email, `Wrong-${n}-password`);
    const locked = await attempt(known.email, STRONG);
    expect(locked.outcome).toBe('locked');
    expect(locked.verified).toHaveLength(1);
    expect(locked.verified[0]).toMatch(ARGON2ID_HASH);
    expect(locked.verified[0]).not.toBe(ownHash);
    // The same dummy an unknown identifier costs.
    expect(locked.verified).toEqual((await attempt('nobody-locked@example.com', STRONG)).verified);
  });
});

describe('the attempt that takes the lock (DESIGN §2: the lock neither reveals accounts)', () => {
  async function lockEvents(): Promise<number> {
    return (await testDb().db.select().from(auditEvents).where(eq(auditEvents.event, 'lock'))).length;
  }

  it("waits on the service's own timer unless another is given", async () => {
    const deps = createLoginDeps(testConfig(), {
      db: testDb().db,
      clock: manualClock(),
      onLocked: async () => {},
    });
    const started = performance.now();
    await deps.sleep(20);
    expect(performance.now() - started).toBeGreaterThanOrEqual(19);
  });

  it.each(['an account', 'an unknown address'])(
    'answers it for %s no sooner than 250 ms after its count, having queued what the lock needs',
    async (who) => {
      const timer = manualTimer();
      const { attempt, mail } = signIn({}, timer.sleep);
      serial += 1;
      const email = who === 'an account' ? (await account()).email : `pinned-nobody-${serial}@example.com`;
      for (let n = 0; n < 4; n++) expect((await attempt(email, 'Wrong-Password-42')).outcome).toBe('failed');
      // An attempt that takes no lock waits for nothing.
      expect(timer.asked).toEqual([]);
      const locks = await lockEvents();
      let answered = false;
      const fifth = attempt(email, 'Wrong-Password-42').finally(() => {
        answered = true;
      });
      await vi.waitFor(async () => expect(await lockEvents()).toBe(locks + 1));
      // The account's unlock mail is the lock's last piece of work; an unknown address has none.
      const mailed = who === 'an account' ? 1 : 0;
      await vi.waitFor(() => expect(mail.of('unlock', email)).toHaveLength(mailed));
      expect(timer.asked).toEqual([250]);
      expect(answered).toBe(false);
      timer.advance(249);
      await settle();
      expect(answered).toBe(false);
      timer.advance(1);
      expect((await fifth).outcome).toBe('locked');
      // Refused while locked: the dummy hash alone, as for everyone, and no floor.
      expect((await attempt(email, STRONG)).outcome).toBe('locked');
      expect(timer.asked).toEqual([250]);
    },
  );
});

describe('lockout (DESIGN §2 Login: LOCKOUT_THRESHOLD 5, LOCKOUT_MINUTES 60; 0 = until unlocked)', () => {
  it('answers the 4th consecutive failure as a failure and locks at the 5th, for the right password too', async () => {
    const { attempt } = signIn();
    for (const email of [(await account()).email, 'ghost-threshold@example.com']) {
      for (let n = 1; n <= 4; n++)
        expect((await attempt(email, `Wrong-${n}-password`)).outcome).toBe('failed');
      expect((await attempt(email, 'Wrong-5-password')).outcome).toBe('locked');
      expect((await attempt(email, STRONG)).outcome).toBe('locked');
    }
  });

  it('keeps a lock 60 minutes: still locked one second before, the right password works one second after', async () => {
    const { attempt, clock } = signIn();
    const known = await account();
    for (let n = 1; n <= 5; n++) await attempt(known.email, `Wrong-${n}-password`);
    clock.advance(60 * MINUTE - SECOND);
    expect((await attempt(known.email, STRONG)).outcome).toBe('locked');
    clock.advance(2 * SECOND);
    expect((await attempt(known.email, STRONG)).outcome).toBe('authenticated');
  });

  it('ends an unknown identifier’s lock after 60 minutes as well', async () => {
    const { attempt, clock } = signIn();
    const ghost = 'ghost-duration@example.com';
    for (let n = 1; n <= 5; n++) await attempt(ghost, `Wrong-${n}-password`);
    clock.advance(60 * MINUTE - SECOND);
    expect((await attempt(ghost, 'Wrong-6-password')).outcome).toBe('locked');
    clock.advance(2 * SECOND);
    expect((await attempt(ghost, 'Wrong-7-password')).outcome).toBe('failed');
  });

  it('with LOCKOUT_MINUTES=0 keeps a lock until the unlock link is used, however long that takes', async () => {
    const { attempt, clock, mail, recovery } = signIn({ LOCKOUT_MINUTES: '0' });
    const known = await account();
    for (let n = 1; n <= 5; n++) await attempt(known.email, `Wrong-${n}-password`);
    clock.advance(59 * MINUTE);
    expect((await attempt(known.email, STRONG)).outcome).toBe('locked');
    const [unlockMail] = mail.of('unlock', known.email);
    const unlocked = await unlockAccount(recovery, { code: codeOf(unlockMail?.link ?? ''), ip: freshIp() });
    expect(unlocked.outcome).toBe('unlocked');
    expect((await attempt(known.email, STRONG)).outcome).toBe('authenticated');

    for (let n = 1; n <= 5; n++) await attempt(known.email, `Wrong-${n}-password`);
    clock.advance(366 * DAY);
    expect((await attempt(known.email, STRONG)).outcome).toBe('locked');
  });

  it('mails the unlock link at the 5th failure of an enabled account, and none for a disabled one', async () => {
    const { attempt, mail } = signIn();
    const enabled = await account();
    const disabled = await account();
    await setDisabled(testDb().db, disabled.id, true);
    for (const known of [enabled, disabled]) {
      for (let n = 1; n <= 4; n++) await attempt(known.email, `Wrong-${n}-password`);
      expect(mail.of('unlock', known.email)).toHaveLength(0);
      expect((await attempt(known.email, 'Wrong-5-password')).outcome).toBe('locked');
    }
    expect(mail.of('unlock', enabled.email)).toHaveLength(1);
    expect(mail.of('unlock', disabled.email)).toHaveLength(0);
  });
});

describe('the stored password (DESIGN §2 Login, §1 Federation)', () => {
  it('keeps a hash made with today’s parameters as it is through sign-ins', async () => {
    const { attempt } = signIn();
    const known = await account();
    const stored = async () =>
      (await testDb().db.select().from(accounts).where(eq(accounts.id, known.id)))[0]?.passwordHash;
    const before = await stored();
    expect((await attempt(known.email, STRONG)).outcome).toBe('authenticated');
    expect((await attempt(known.email, STRONG)).outcome).toBe('authenticated');
    expect(await stored()).toBe(before);
  });

  it('refuses the right local password of an address whose domain signs in upstream, verifying the dummy', async () => {
    const { attempt } = signIn();
    const [provider] = await testDb()
      .db.insert(upstreamProviders)
      .values({
        name: 'Bound',
        issuer: 'https://idp.bound.example',
        clientId: 'keycard',
        clientSecret: 'secret',
        scopes: ['openid'],
      })
      .returning();
    await testDb()
      .db.insert(upstreamDomains)
      .values({ domain: 'bound.example', providerId: String(provider?.id) });
    const bound = await createAccount(testDb().db, 'kept-password@bound.example', STRONG);
    const { outcome, verified } = await attempt(bound.email, STRONG);
    expect(outcome).toBe('failed');
    expect(verified).toHaveLength(1);
    const [own] = (await testDb().db.select().from(accounts).where(eq(accounts.id, bound.id))).map(
      (row) => row.passwordHash,
    );
    expect(verified[0]).not.toBe(own);
  });
});

describe('password age (DESIGN §2 Login: PASSWORD_MAX_AGE_DAYS, default 0 = never)', () => {
  async function agedAccount(clock: ReturnType<typeof manualClock>) {
    const aged = await account(null);
    await storePassword(testDb().db, aged.id, await hashPassword(STRONG), await clock.now());
    return aged;
  }

  it('never expires a password by default, even after ten years', async () => {
    const { attempt, clock } = signIn();
    const aged = await agedAccount(clock);
    clock.advance(3653 * DAY);
    expect((await attempt(aged.email, STRONG)).outcome).toBe('authenticated');
  });

  it('with PASSWORD_MAX_AGE_DAYS=90 accepts a password one second before 90 days and not one second after', async () => {
    const { attempt, clock } = signIn({ PASSWORD_MAX_AGE_DAYS: '90' });
    const aged = await agedAccount(clock);
    clock.advance(90 * DAY - SECOND);
    expect((await attempt(aged.email, STRONG)).outcome).toBe('authenticated');
    clock.advance(2 * SECOND);
    expect((await attempt(aged.email, STRONG)).outcome).toBe('password_expired');
    expect((await attempt(aged.email, 'Not-The-Password-1')).outcome).toBe('failed');
  });

  it('with PASSWORD_MAX_AGE_DAYS=90 still accepts a password exactly 90 days old: only an older one has expired', async () => {
    const { attempt, clock } = signIn({ PASSWORD_MAX_AGE_DAYS: '90' });
    const aged = await agedAccount(clock);
    clock.advance(90 * DAY);
    expect((await attempt(aged.email, STRONG)).outcome).toBe('authenticated');
  });

  it('never expires a password whose change was not recorded (an account from before the date was kept)', async () => {
    const { attempt, clock } = signIn({ PASSWORD_MAX_AGE_DAYS: '90' });
    const undated = await agedAccount(clock);
    await testDb().db.update(accounts).set({ passwordChangedAt: null }).where(eq(accounts.id, undated.id));
    clock.advance(3653 * DAY);
    expect((await attempt(undated.email, STRONG)).outcome).toBe('authenticated');
  });

  it('records the refusal of an expired password in the audit trail, with its reason', async () => {
    const { attempt, clock } = signIn({ PASSWORD_MAX_AGE_DAYS: '90' });
    const aged = await agedAccount(clock);
    clock.advance(91 * DAY);
    expect((await attempt(aged.email, STRONG)).outcome).toBe('password_expired');
    const rows = await testDb()
      .db.select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'login'), eq(auditEvents.accountId, aged.id)));
    expect(rows.map((row) => ({ outcome: row.outcome, detail: row.detail }))).toEqual([
      { outcome: 'refused', detail: { reason: 'password_expired' } },
    ]);
  });
});
