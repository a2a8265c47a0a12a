import { VerificationType } from '@keycard/contract';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { storePassword } from '../src/accounts/account-repository.ts';
import { identifierHash } from '../src/accounts/identifiers.ts';
import { recordFailure } from '../src/accounts/lockout.ts';
import { hashPassword } from '../src/accounts/password-hash.ts';
import { issueCode } from '../src/codes/codes.ts';
import { checkVerification } from '../src/recovery/check-verification.ts';
import { createRecoveryDeps } from '../src/recovery/create-recovery-deps.ts';
import { requestPasswordReset } from '../src/recovery/forgot-password.ts';
import type { RecoveryDeps } from '../src/recovery/recovery-deps.ts';
import { createRecoveryLimits } from '../src/recovery/recovery-limits.ts';
import { resetPassword } from '../src/recovery/reset-password.ts';
import { manualClock } from '../src/store/clock.ts';
import {
  accounts,
  auditEvents,
  passwordHistory,
  upstreamDomains,
  upstreamProviders,
} from '../src/store/tables/index.ts';
import { freshIp, recordingMail, STRONG } from './recovery-kit.ts';
import { testConfig } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';
import { manualTimer, settle } from './support/manual-timer.ts';
import { createAccount } from './support/oidc-flow.ts';

/**
 * The numbers of DESIGN §2 Forgot password, Codes and Reset password, written out here and crossed
 * with injected time (the clock, the rate-limit counters' clock, the minimum answer time's timer) on
 * the recovery dependencies the service builds from its default configuration.
 */

const testDb = useTestDatabase();
const SECOND = 1000;
const MINUTE = 60 * SECOND;
let serial = 0;

/**
 * The service's recovery dependencies (default configuration, or `env` on top) with every clock
 * stepped by hand.
 */
function recovery(overrides: Partial<RecoveryDeps> = {}, env: NodeJS.ProcessEnv = {}) {
  const clock = manualClock();
  let limitsNow = 0;
  const mail = recordingMail();
  const config = testConfig(env);
  const deps = {
    ...createRecoveryDeps({ config, db: testDb().db, mail, clock }),
    limits: createRecoveryLimits({ now: () => limitsNow, forgotPassword: config.forgotPasswordLimits }),
    sleep: async () => {},
    ...overrides,
  };
  const advance = (ms: number) => {
    clock.advance(ms);
    limitsNow += ms;
  };
  return { deps, mail, clock, advance };
}

async function account(password: string | null = STRONG) {
  serial += 1;
  return createAccount(testDb().db, `pinned-recovery-${serial}@example.com`, password);
}

function forgot(deps: RecoveryDeps, email: string, ip: string) {
  return requestPasswordReset(deps, { email, ip, language: 'en' });
}

describe('forgot-password minimum answer time (DESIGN §2: same timing for every input)', () => {
  async function boundPlatform() {
    serial += 1;
    const domain = `sso-${serial}.pinned.test`;
    const [provider] = await testDb()
      .db.insert(upstreamProviders)
      .values({
        name: 'Pinned SSO',
        issuer: `https://${domain}`,
        clientId: 'k',
        clientSecret: 's',
        scopes: [],
      })
      .returning();
    await testDb()
      .db.insert(upstreamDomains)
      .values({ domain, providerId: provider?.id ?? '' });
    return (await createAccount(testDb().db, `member@${domain}`, null)).email;
  }

  const inputs: Record<string, (deps: RecoveryDeps) => Promise<string>> = {
    'an existing account': async () => (await account()).email,
    'an unknown address': async () => `pinned-nobody-${++serial}@example.com`,
    'a federated account': () => boundPlatform(),
    'a locked account': async () => {
      const { email } = await account();
      for (let n = 0; n < 5; n++)
        await recordFailure(testDb().db, identifierHash(email), new Date(), { threshold: 5, minutes: 0 });
      return email;
    },
    'an address over its mail limit': async (deps) => {
      const { email } = await account();
      const quick = { ...deps, sleep: async () => {} };
      for (let n = 0; n < 3; n++) await forgot(quick, email, freshIp());
      return email;
    },
  };

  it.each(Object.keys(inputs))('answers %s no sooner than 250 ms after the request', async (input) => {
    const timer = manualTimer();
    const { deps } = recovery({ sleep: timer.sleep });
    const email = await inputs[input]?.(deps);
    const ip = freshIp();
    let answered = false;
    const answer = forgot(deps, email ?? '', ip).then(() => {
      answered = true;
    });
    // All the work is done once the request's audit event is written; the answer still waits.
    await vi.waitFor(async () => {
      const events = await testDb()
        .db.select()
        .from(auditEvents)
        .where(and(eq(auditEvents.event, 'reset_request'), eq(auditEvents.ip, ip)));
      expect(events).toHaveLength(1);
    });
    await vi.waitFor(() => expect(timer.asked).toEqual([250]));
    expect(answered).toBe(false);
    timer.advance(249);
    await settle();
    expect(answered).toBe(false);
    timer.advance(1);
    await answer;
    expect(timer.asked).toEqual([250]);
  });
});

describe('forgot-password mail limits (DESIGN §2: per address and per IP)', () => {
  it('mails one address at most 3 times in 15 minutes', async () => {
    const { deps, mail, advance } = recovery();
    const { email } = await account();
    for (let n = 0; n < 4; n++) await forgot(deps, email, freshIp());
    expect(mail.of('password_reset', email)).toHaveLength(3);
    advance(15 * MINUTE - SECOND);
    await forgot(deps, email, freshIp());
    expect(mail.of('password_reset', email)).toHaveLength(3);
    advance(2 * SECOND);
    await forgot(deps, email, freshIp());
    expect(mail.of('password_reset', email)).toHaveLength(4);
  });

  it('serves one client address at most 20 requests in 15 minutes', async () => {
    const { deps, mail, advance } = recovery();
    const ip = freshIp();
    for (let n = 0; n < 19; n++) await forgot(deps, `pinned-spray-${serial}-${n}@example.com`, ip);
    const twentieth = await account();
    await forgot(deps, twentieth.email, ip);
    expect(mail.of('password_reset', twentieth.email)).toHaveLength(1);
    const victim = await account();
    await forgot(deps, victim.email, ip);
    expect(mail.of('password_reset', victim.email)).toHaveLength(0);
    advance(15 * MINUTE - SECOND);
    await forgot(deps, victim.email, ip);
    expect(mail.of('password_reset', victim.email)).toHaveLength(0);
    advance(2 * SECOND);
    await forgot(deps, victim.email, ip);
    expect(mail.of('password_reset', victim.email)).toHaveLength(1);
  });
});

describe('configured forgot-password mail limits', () => {
  const env = {
    FORGOT_PASSWORD_PER_ADDRESS: '5',
    FORGOT_PASSWORD_PER_IP: '7',
    FORGOT_PASSWORD_WINDOW_MINUTES: '30',
  };

  it('mails one address at most FORGOT_PASSWORD_PER_ADDRESS=5 times in FORGOT_PASSWORD_WINDOW_MINUTES=30', async () => {
    const { deps, mail, advance } = recovery({}, env);
    const { email } = await account();
    for (let n = 0; n < 6; n++) await forgot(deps, email, freshIp());
    expect(mail.of('password_reset', email)).toHaveLength(5);
    advance(30 * MINUTE - SECOND);
    await forgot(deps, email, freshIp());
    expect(mail.of('password_reset', email)).toHaveLength(5);
    advance(2 * SECOND);
    await forgot(deps, email, freshIp());
    expect(mail.of('password_reset', email)).toHaveLength(6);
  });

  it('serves one client address at most FORGOT_PASSWORD_PER_IP=7 requests in 30 minutes', async () => {
    const { deps, mail, advance } = recovery({}, env);
    const ip = freshIp();
    for (let n = 0; n < 6; n++) await forgot(deps, `pinned-configured-${serial}-${n}@example.com`, ip);
    const seventh = await account();
    await forgot(deps, seventh.email, ip);
    expect(mail.of('password_reset', seventh.email)).toHaveLength(1);
    const victim = await account();
    await forgot(deps, victim.email, ip);
    expect(mail.of('password_reset', victim.email)).toHaveLength(0);
    advance(30 * MINUTE - SECOND);
    await forgot(deps, victim.email, ip);
    expect(mail.of('password_reset', victim.email)).toHaveLength(0);
    advance(2 * SECOND);
    await forgot(deps, victim.email, ip);
    expect(mail.of('password_reset', victim.email)).toHaveLength(1);
  });
});

describe('forgot-password limits: whose requests count together', () => {
  it('counts each address on its own: a fourth request for one address leaves another one mailed', async () => {
    const { deps, mail } = recovery();
    const first = await account();
    const second = await account();
    for (let n = 0; n < 4; n++) await forgot(deps, first.email, freshIp());
    await forgot(deps, second.email, freshIp());
    expect(mail.of('password_reset', first.email)).toHaveLength(3);
    expect(mail.of('password_reset', second.email)).toHaveLength(1);
  });

  it("does not count a request its client may not make against the address: the 3 mails stay the owner's", async () => {
    const { deps, mail } = recovery();
    const victim = await account();
    const attacker = freshIp();
    for (let n = 0; n < 20; n++) await forgot(deps, `pinned-budget-${serial}-${n}@example.com`, attacker);
    for (let n = 0; n < 3; n++) await forgot(deps, victim.email, attacker);
    expect(mail.of('password_reset', victim.email)).toHaveLength(0);
    for (let n = 0; n < 3; n++) await forgot(deps, victim.email, freshIp());
    expect(mail.of('password_reset', victim.email)).toHaveLength(3);
    await forgot(deps, victim.email, freshIp());
    expect(mail.of('password_reset', victim.email)).toHaveLength(3);
  });

  it('counts requests without a client address as one client, apart from every real one', async () => {
    const { deps, mail } = recovery();
    const unknownClient = (email: string) => requestPasswordReset(deps, { email, ip: null, language: 'en' });
    for (let n = 0; n < 20; n++) await unknownClient(`pinned-anonymous-${serial}-${n}@example.com`);
    const victim = await account();
    await unknownClient(victim.email);
    expect(mail.of('password_reset', victim.email)).toHaveLength(0);
    await forgot(deps, victim.email, freshIp());
    expect(mail.of('password_reset', victim.email)).toHaveLength(1);
  });
});

describe('forgot-password records every request and wakes the mail worker only for a mail', () => {
  async function requests(ip: string) {
    const rows = await testDb()
      .db.select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'reset_request'), eq(auditEvents.ip, ip)))
      .orderBy(auditEvents.id);
    return rows.map(({ outcome, accountId, detail }) => ({ outcome, accountId, detail }));
  }

  it('records a mailed and an unknown address as successes, and a request over the limit as refused', async () => {
    const { deps, mail } = recovery();
    const known = await account();
    const ip = freshIp();
    await forgot(deps, known.email, ip);
    expect(mail.nudges).toBe(1);
    await forgot(deps, 'pinned-nobody-audit@example.com', ip);
    expect(mail.nudges).toBe(1);
    for (let n = 0; n < 2; n++) await forgot(deps, known.email, freshIp());
    expect(mail.nudges).toBe(3);
    await forgot(deps, known.email, ip);
    expect(mail.nudges).toBe(3);
    expect(await requests(ip)).toEqual([
      { outcome: 'success', accountId: known.id, detail: null },
      { outcome: 'success', accountId: null, detail: null },
      { outcome: 'refused', accountId: known.id, detail: { reason: 'rate_limited' } },
    ]);
  });
});

describe('wrong-code guessing (DESIGN §2 Codes: limited per IP)', () => {
  it('lets one client address present 20 wrong codes in 15 minutes, then refuses even a live code until the window ends', async () => {
    const { deps, advance } = recovery();
    const { id } = await account();
    const code = await issueCode(deps.db, deps.clock, deps.codeLifetimes, {
      accountId: id,
      type: VerificationType.PasswordReset,
    });
    const ip = freshIp();
    const check = async (candidate: string) =>
      (await checkVerification(deps, { code: candidate, type: VerificationType.PasswordReset, ip })).isValid;
    for (let n = 1; n <= 19; n++) expect(await check(`wrong-guess-${n}`)).toBe(false);
    expect(await check(code)).toBe(true);
    expect(await check('wrong-guess-20')).toBe(false);
    expect(await check(code)).toBe(false);
    advance(15 * MINUTE - SECOND);
    expect(await check(code)).toBe(false);
    advance(2 * SECOND);
    expect(await check(code)).toBe(true);
  });
});

describe('password history (DESIGN §2 Reset password: PASSWORD_HISTORY 5)', () => {
  it('refuses each of the last 5 passwords and accepts the 6th most recent', async () => {
    const { deps, advance } = recovery();
    const passwords = Array.from({ length: 6 }, (_, n) => `History-Pass-${n}!x`);
    const { id } = await account(null);
    await storePassword(deps.db, id, await hashPassword(passwords[0] ?? ''), await deps.clock.now());
    const reset = async (newPassword: string) => {
      const code = await issueCode(deps.db, deps.clock, deps.codeLifetimes, {
        accountId: id,
        type: VerificationType.PasswordReset,
      });
      return (await resetPassword(deps, { code, type: 1, newPassword, ip: freshIp(), language: 'en' }))
        .outcome;
    };
    for (const password of passwords.slice(1)) {
      advance(MINUTE);
      expect(await reset(password)).toBe('reset');
    }
    // Now the last five are passwords 1 to 5 (5 is the current one); password 0 is the sixth.
    for (const password of passwords.slice(1)) expect(await reset(password)).toBe('history_violation');
    expect(await reset(passwords[0] ?? '')).toBe('reset');
  });

  it('keeps no more than the 5 hashes it checks: an older one is deleted at the reset that drops it', async () => {
    const { deps, advance } = recovery();
    const { id } = await account(null);
    const stored = () =>
      deps.db
        .select({ hash: passwordHistory.passwordHash })
        .from(passwordHistory)
        .where(eq(passwordHistory.accountId, id))
        .orderBy(asc(passwordHistory.createdAt));
    await storePassword(deps.db, id, await hashPassword('History-Pass-0!x'), await deps.clock.now());
    const hashes = [...(await stored()).map((row) => row.hash)];
    for (let n = 1; n <= 6; n++) {
      advance(MINUTE);
      const code = await issueCode(deps.db, deps.clock, deps.codeLifetimes, {
        accountId: id,
        type: VerificationType.PasswordReset,
      });
      const newPassword = `History-Pass-${n}!x`;
      expect(
        (await resetPassword(deps, { code, type: 1, newPassword, ip: freshIp(), language: 'en' })).outcome,
      ).toBe('reset');
      const [account] = await deps.db.select().from(accounts).where(eq(accounts.id, id));
      hashes.push(account?.passwordHash ?? '');
      // Up to 5 kept: the newest, the current password's among them.
      expect((await stored()).map((row) => row.hash)).toEqual(hashes.slice(-5));
    }
    expect(hashes).toHaveLength(7);
  });
});
