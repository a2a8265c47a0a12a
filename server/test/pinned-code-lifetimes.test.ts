import { VerificationType } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { setMustChangePassword } from '../src/accounts/account-repository.ts';
import { attemptLogin, createLoginDeps } from '../src/accounts/login.ts';
import { issueCode } from '../src/codes/codes.ts';
import type { MailKind } from '../src/mail/mail-kinds.ts';
import { checkVerification } from '../src/recovery/check-verification.ts';
import { confirmNewEmail } from '../src/recovery/confirm-new-email.ts';
import { createRecoveryDeps } from '../src/recovery/create-recovery-deps.ts';
import { requestPasswordReset } from '../src/recovery/forgot-password.ts';
import { inviteUser } from '../src/recovery/invite-user.ts';
import { requestEmailChange } from '../src/recovery/request-email-change.ts';
import { unlockAccount } from '../src/recovery/unlock-account.ts';
import { queueUnlockMail } from '../src/recovery/unlock-mail.ts';
import { manualClock } from '../src/store/clock.ts';
import { codeOf, freshIp, recordingMail, STRONG } from './recovery-kit.ts';
import { testConfig } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';
import { createAccount } from './support/oidc-flow.ts';

/**
 * DESIGN §2 Codes: every code lifetime, written out here, crossed with the injected clock on codes the
 * service's own flows issue from its configuration: accepted one second before the lifetime ends,
 * refused one second after. The mail carrying a code expires with it.
 */

const testDb = useTestDatabase();
const MINUTES = 60;
const HOURS = 60 * MINUTES;
const DAYS = 24 * HOURS;
let serial = 0;

/** The recovery and sign-in flows as the service builds them from `env`, on a clock moved by hand. */
function service(env: NodeJS.ProcessEnv) {
  const config = testConfig(env);
  const db = testDb().db;
  const clock = manualClock();
  const mail = recordingMail();
  // The forgot-password minimum answer time is pinned elsewhere; here it need not be waited out.
  const recovery = { ...createRecoveryDeps({ config, db, mail, clock }), sleep: async () => {} };
  const login = createLoginDeps(config, {
    db,
    clock,
    onLocked: queueUnlockMail({ ...recovery, clockIn: () => clock }),
  });
  return { config, db, clock, mail, recovery, login };
}
type Service = ReturnType<typeof service>;

async function account(password: string | null = STRONG) {
  serial += 1;
  return createAccount(testDb().db, `pinned-code-${serial}@example.com`, password);
}

/** The code in the one mail of `kind` to `to`, and when that mail expires. */
function mailed(s: Service, kind: MailKind, to: string) {
  const mails = s.mail.queued.filter((queued) => queued.kind === kind && queued.to === to);
  expect(mails).toHaveLength(1);
  const [mail] = mails;
  const link = mail?.values && 'link' in mail.values ? mail.values.link : '';
  // A mail without an expiry would be delivered after its code died.
  expect(mail?.expiresAt).toBeInstanceOf(Date);
  return { code: codeOf(link), mailExpiresAt: mail?.expiresAt };
}

interface Issued {
  code: string;
  /** The expiry of the mail that carries the code; undefined for a code answered, not mailed. */
  mailExpiresAt: Date | undefined;
}

interface LifetimeCase {
  /** Issues a code the way the service does. */
  issue(s: Service): Promise<Issued>;
  /** Uses the code the way its page does; true when it was accepted. */
  accepted(s: Service, code: string): Promise<boolean>;
}

const checks = (type: VerificationType) => async (s: Service, code: string) =>
  (await checkVerification(s.recovery, { code, type, ip: freshIp() })).isValid;

const confirms = async (s: Service, code: string) =>
  (await confirmNewEmail(s.recovery, { code, ip: freshIp(), language: 'en' })).outcome === 'confirmed';

const CASES = {
  'PasswordReset (forgot password)': {
    async issue(s) {
      const { email } = await account();
      await requestPasswordReset(s.recovery, { email, ip: freshIp(), language: 'en' });
      return mailed(s, 'password_reset', email);
    },
    accepted: checks(VerificationType.PasswordReset),
  },
  'PasswordExpired (sign-in with an expired password)': {
    async issue(s) {
      const { id, email } = await account();
      await setMustChangePassword(s.db, id);
      const result = await attemptLogin(s.login, { email, password: STRONG, ip: freshIp(), language: 'en' });
      if (result.outcome !== 'password_expired') throw new Error(`sign-in answered ${result.outcome}`);
      return { code: result.code, mailExpiresAt: undefined };
    },
    accepted: checks(VerificationType.PasswordExpired),
  },
  'unlock (mailed with a lock)': {
    async issue(s) {
      const { email } = await account();
      for (let n = 1; n <= 5; n++) {
        await attemptLogin(s.login, {
          email,
          password: `Wrong-${n}-password`,
          ip: freshIp(),
          language: 'en',
        });
      }
      return mailed(s, 'unlock', email);
    },
    accepted: async (s, code) =>
      (await unlockAccount(s.recovery, { code, ip: freshIp() })).outcome === 'unlocked',
  },
  'EmailChanged (admin changes the address)': {
    async issue(s) {
      const { id } = await account();
      const newEmail = `pinned-moved-${serial}@example.com`;
      expect(await requestEmailChange(s.recovery, id, newEmail)).toEqual({ outcome: 'requested' });
      return mailed(s, 'email_change_confirm', newEmail);
    },
    accepted: confirms,
  },
  ContactEmailChanged: {
    async issue(s) {
      const { id } = await account();
      const payload = { newEmail: `pinned-contact-${serial}@example.com` };
      const type = VerificationType.ContactEmailChanged;
      const code = await issueCode(s.db, s.clock, s.config.codeLifetimes, { accountId: id, type, payload });
      return { code, mailExpiresAt: undefined };
    },
    accepted: confirms,
  },
  'VerifyUser (invitation)': {
    async issue(s) {
      const { id, email } = await account(null);
      expect(await inviteUser(s.recovery, id)).toEqual({ outcome: 'invited' });
      return mailed(s, 'invitation', email);
    },
    accepted: checks(VerificationType.VerifyUser),
  },
} satisfies Record<string, LifetimeCase>;

type CaseName = keyof typeof CASES;

/** Seconds each code lives: DESIGN §2's defaults, and the configuration of the second run. */
const DESIGN_DEFAULTS: Record<CaseName, number> = {
  'PasswordReset (forgot password)': 60 * MINUTES,
  'PasswordExpired (sign-in with an expired password)': 15 * MINUTES,
  'unlock (mailed with a lock)': 60 * MINUTES,
  'EmailChanged (admin changes the address)': 72 * HOURS,
  ContactEmailChanged: 72 * HOURS,
  'VerifyUser (invitation)': 7 * DAYS,
};

const CONFIGURED_ENV = {
  PASSWORD_RESET_CODE_MINUTES: '30',
  PASSWORD_EXPIRED_CODE_MINUTES: '5',
  UNLOCK_CODE_MINUTES: '10',
  EMAIL_CHANGE_CODE_HOURS: '24',
  VERIFY_USER_CODE_DAYS: '2',
};
const CONFIGURED: Record<CaseName, number> = {
  'PasswordReset (forgot password)': 30 * MINUTES,
  'PasswordExpired (sign-in with an expired password)': 5 * MINUTES,
  'unlock (mailed with a lock)': 10 * MINUTES,
  'EmailChanged (admin changes the address)': 24 * HOURS,
  ContactEmailChanged: 24 * HOURS,
  'VerifyUser (invitation)': 2 * DAYS,
};

describe.each([
  ['DESIGN §2 defaults', {}, DESIGN_DEFAULTS],
  ['configured lifetimes', CONFIGURED_ENV, CONFIGURED],
] as const)('code lifetimes: %s', (_label, env, lifetimes) => {
  it.each(Object.keys(CASES) as CaseName[])(
    '%s: accepted one second before its lifetime ends, refused one second after',
    async (name) => {
      const lifetimeMs = lifetimes[name] * 1000;
      const s = service(env);
      const issuedAt = (await s.clock.now()).getTime();
      // Two codes issued together: one used just before the end, the other just after (a link that
      // acts on load may answer differently once it has been used).
      const before = await CASES[name].issue(s);
      const after = await CASES[name].issue(s);
      for (const { mailExpiresAt } of [before, after]) {
        if (mailExpiresAt !== undefined) expect(mailExpiresAt.getTime()).toBe(issuedAt + lifetimeMs);
      }
      s.clock.advance(lifetimeMs - 1000);
      expect(await CASES[name].accepted(s, before.code)).toBe(true);
      s.clock.advance(2000);
      expect(await CASES[name].accepted(s, after.code)).toBe(false);
    },
  );
});
