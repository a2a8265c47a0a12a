import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { failureCount, findAccountByEmail } from '../src/accounts/account-repository.ts';
import { identifierHash } from '../src/accounts/identifiers.ts';
import { isLocked, recordFailure } from '../src/accounts/lockout.ts';
import { attemptLogin } from '../src/accounts/login.ts';
import { verifyArgon2, verifyPassword } from '../src/accounts/password-hash.ts';
import { UNMEASURED } from '../src/metrics/meters.ts';
import { manualClock } from '../src/store/clock.ts';
import { auditEvents, outbox, passwordHistory } from '../src/store/tables/index.ts';
import { runAdmin } from './admin-harness.ts';
import { testConfig } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';

const testDb = useTestDatabase();
const db = () => testDb().db;
const PASSWORD = 'Correct-Horse-42';
const RULES = {
  lockout: { threshold: 3, minutes: 60 },
  passwordMaxAgeDays: 0,
  codeLifetimes: testConfig().codeLifetimes,
};

function admin(argv: string[], stdin?: string) {
  return runAdmin(argv, { db: db(), stdin });
}

async function auditOf(accountId: string) {
  return db().select().from(auditEvents).where(eq(auditEvents.accountId, accountId)).orderBy(auditEvents.id);
}

function login(email: string, password: string) {
  return attemptLogin(
    {
      db: db(),
      clock: manualClock(new Date()),
      rules: RULES,
      verifyHash: verifyArgon2,
      signIns: UNMEASURED.signIns,
      onLocked: async () => {},
      sleep: (ms) => sleep(ms),
    },
    {
      email,
      password,
      ip: '127.0.0.1',
      language: 'en',
    },
  );
}

describe('user:add', () => {
  it('creates an account without a password and queues its invitation', async () => {
    const run = await admin(['user:add', '--email', ' Grace@Example.com ', '--name', ' Grace Hopper ']);
    expect(run.code).toBe(0);
    const account = await findAccountByEmail(db(), 'grace@example.com');
    expect(account).toMatchObject({
      email: 'Grace@Example.com',
      displayName: 'Grace Hopper',
      firstName: 'Grace',
    });
    expect(account?.passwordHash).toBeNull();
    expect(run.stdout).toBe(
      `created account Grace@Example.com (id ${account?.id}) and queued an invitation whose link sets the first password\n`,
    );
    const [mail] = await db().select().from(outbox).where(eq(outbox.recipient, 'Grace@Example.com'));
    expect(mail).toMatchObject({ kind: 'invitation', sentAt: null });
    expect(mail?.textBody).toMatch(/\/resetPassword\/6\/[A-Za-z0-9_-]+/);
    expect(run.stdinRead).toBe(false);
    const [event] = await auditOf(account?.id ?? '');
    expect(event).toMatchObject({ event: 'admin', outcome: 'success', detail: { command: 'user:add' } });
  });

  it('sets a first password read from standard input, which then signs in', async () => {
    const run = await admin(
      ['user:add', '--email', 'ada@example.com', '--name', 'Ada Lovelace', '--password-stdin'],
      `${PASSWORD}\n`,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^created account ada@example.com \(id [0-9a-f-]{36}\) with the given password\n$/,
    );
    const account = await findAccountByEmail(db(), 'ada@example.com');
    expect(await verifyPassword(account?.passwordHash ?? null, PASSWORD)).toBe(true);
    expect(account?.passwordChangedAt).toBeInstanceOf(Date);
    const history = await db()
      .select()
      .from(passwordHistory)
      .where(eq(passwordHistory.accountId, account?.id ?? ''));
    expect(history).toHaveLength(1);
    expect((await login('ada@example.com', PASSWORD)).outcome).toBe('authenticated');
    const audit = JSON.stringify(await auditOf(account?.id ?? ''));
    expect(audit).not.toContain(PASSWORD);
    expect(audit).not.toContain(account?.passwordHash);
  });

  it('answers --json with the created account', async () => {
    const run = await admin(['user:add', '--json', '--email', 'json@example.com', '--name', 'Jay Son']);
    expect(run.code).toBe(0);
    const account = await findAccountByEmail(db(), 'json@example.com');
    expect(run.json()).toEqual({
      ok: true,
      command: 'user:add',
      via: 'database',
      result: {
        account: { id: account?.id, email: 'json@example.com', displayName: 'Jay Son' },
        hasPassword: false,
        invitation: 'queued',
      },
    });
  });

  it('refuses a password that breaks the policy, naming the rules but never the password', async () => {
    const run = await admin(
      ['user:add', '--email', 'weak@example.com', '--name', 'Weak Pw', '--password-stdin'],
      'weakpassword\n',
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'admin: invalid --password-stdin: the password needs a digit, an uppercase letter and a character that is not a letter or digit (a space or a symbol such as ! or #)\n',
    );
    expect(run.stderr).not.toContain('weakpassword');
    expect(await findAccountByEmail(db(), 'weak@example.com')).toBeNull();
  });

  it('refuses a password from the shipped list of common passwords, in any case', async () => {
    const run = await admin(
      ['user:add', '--email', 'common@example.com', '--name', 'Com Mon', '--password-stdin'],
      '!@#$Qwer1234',
    );
    expect(run).toMatchObject({
      code: 2,
      stderr: 'admin: invalid --password-stdin: the password is on the list of common passwords\n',
    });
    expect(await findAccountByEmail(db(), 'common@example.com')).toBeNull();
  });

  it('refuses a password built from the account’s own name, at the default least strength of 3', async () => {
    const run = await admin(
      ['user:add', '--email', 'ada.byron@example.com', '--name', 'Ada Byron', '--password-stdin'],
      'AdaByron2026!',
    );
    expect(run).toMatchObject({
      code: 2,
      stderr:
        'admin: invalid --password-stdin: the password is too easy to guess (common words, names, dates or the account’s own details)\n',
    });
    expect(await findAccountByEmail(db(), 'ada.byron@example.com')).toBeNull();
  });

  it('refuses an empty standard input when a password was promised', async () => {
    const run = await admin(
      ['user:add', '--email', 'empty@example.com', '--name', 'No Pw', '--password-stdin'],
      '',
    );
    expect(run).toMatchObject({
      code: 2,
      stderr: 'admin: --password-stdin: no Password on standard input\n',
    });
    expect(await findAccountByEmail(db(), 'empty@example.com')).toBeNull();
  });

  it('refuses a second account with the same address, whatever its case (exit 1)', async () => {
    await admin(['user:add', '--email', 'twin@example.com', '--name', 'First Twin']);
    const run = await admin(['user:add', '--email', 'TWIN@example.com', '--name', 'Second Twin']);
    expect(run).toMatchObject({
      code: 1,
      stderr: 'admin: an account with the e-mail TWIN@example.com already exists\n',
    });
    expect((await findAccountByEmail(db(), 'twin@example.com'))?.displayName).toBe('First Twin');
  });

  it.each([
    ['not-an-address', 'admin: invalid --email: must be an e-mail address such as ada@example.com\n'],
    ['two@@example.com', 'admin: invalid --email: must be an e-mail address such as ada@example.com\n'],
    ['nodot@localhost', 'admin: invalid --email: must be an e-mail address such as ada@example.com\n'],
  ])('refuses the e-mail %j before asking for a password (exit 2)', async (email, stderr) => {
    const run = await admin(
      ['user:add', '--email', email, '--name', 'X Y', '--password-stdin'],
      `${PASSWORD}\n`,
    );
    expect(run).toMatchObject({ code: 2, stderr, stdinRead: false });
  });

  it('refuses an empty name', async () => {
    const run = await admin(['user:add', '--email', 'noname@example.com', '--name', '  ']);
    expect(run).toMatchObject({ code: 2, stderr: 'admin: invalid --name: must not be empty\n' });
  });
});

describe('user:expire-password', () => {
  it('makes the next correct sign-in answer "password expired"', async () => {
    await admin(
      ['user:add', '--email', 'expire@example.com', '--name', 'Ex Pire', '--password-stdin'],
      PASSWORD,
    );
    const run = await admin(['user:expire-password', '--email', 'Expire@Example.com']);
    expect(run).toMatchObject({
      code: 0,
      stdout: 'expire@example.com must change the password at the next sign-in\n',
    });
    const account = await findAccountByEmail(db(), 'expire@example.com');
    expect(account?.mustChangePassword).toBe(true);
    expect((await login('expire@example.com', PASSWORD)).outcome).toBe('password_expired');
    const events = (await auditOf(account?.id ?? '')).filter((event) => event.event === 'admin');
    expect(events.map((event) => event.detail)).toEqual([
      { command: 'user:add' },
      { command: 'user:expire-password' },
    ]);

    // The owner is told why the next sign-in asks for a new password, once.
    const notices = await db().select().from(outbox).where(eq(outbox.recipient, 'expire@example.com'));
    expect(notices.map((mail) => [mail.kind, mail.subject])).toEqual([
      ['password_expired', 'Please choose a new Keycard password'],
    ]);
    expect(notices[0]?.textBody).not.toMatch(/resetPassword/i);

    const again = await admin(['user:expire-password', '--email', 'expire@example.com']);
    expect(again.stdout).toBe(
      'expire@example.com already had to change the password at the next sign-in; its sessions were ended\n',
    );
    expect(await db().select().from(outbox).where(eq(outbox.recipient, 'expire@example.com'))).toHaveLength(
      1,
    );
  });

  it('reports an unknown account (exit 1)', async () => {
    const run = await admin(['user:expire-password', '--email', 'nobody@example.com']);
    expect(run).toMatchObject({ code: 1, stderr: 'admin: no account with the e-mail nobody@example.com\n' });
  });

  it('needs --email (exit 2)', async () => {
    const run = await admin(['user:expire-password']);
    expect(run).toMatchObject({
      code: 2,
      stderr: 'admin: user:expire-password: missing --email (see user:expire-password --help)\n',
    });
  });
});

describe('user:unlock', () => {
  it("clears a locked identifier's counter and records the unlock", async () => {
    await admin(
      ['user:add', '--email', 'locked@example.com', '--name', 'Lo Cked', '--password-stdin'],
      PASSWORD,
    );
    const id = identifierHash('locked@example.com');
    for (let i = 0; i < 3; i++) await recordFailure(db(), id, new Date(), RULES.lockout);
    expect(await isLocked(db(), id, new Date())).toBe(true);
    expect((await login('locked@example.com', PASSWORD)).outcome).toBe('locked');

    const run = await admin(['user:unlock', '--email', 'LOCKED@example.com', '--json']);
    expect(run.code).toBe(0);
    expect(run.json().result).toMatchObject({ wasLocked: true, failuresCleared: 3 });
    expect(await failureCount(db(), id)).toBe(0);
    expect((await login('locked@example.com', PASSWORD)).outcome).toBe('authenticated');
    const account = await findAccountByEmail(db(), 'locked@example.com');
    const events = await auditOf(account?.id ?? '');
    expect(events).toContainEqual(
      expect.objectContaining({
        event: 'unlock',
        outcome: 'success',
        detail: { via: 'admin', wasLocked: true },
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'admin', detail: { command: 'user:unlock' } }),
    );
  });

  it('says so when the account was not locked', async () => {
    await admin(['user:add', '--email', 'free@example.com', '--name', 'Free Bird']);
    const id = identifierHash('free@example.com');
    await recordFailure(db(), id, new Date(), RULES.lockout);
    expect((await admin(['user:unlock', '--email', 'free@example.com'])).stdout).toBe(
      'free@example.com was not locked; cleared 1 failed sign-in\n',
    );
    expect((await admin(['user:unlock', '--email', 'free@example.com'])).stdout).toBe(
      'free@example.com was not locked; nothing to clear\n',
    );
  });

  it('reports an unknown account and leaves its counter alone (exit 1)', async () => {
    const id = identifierHash('ghost@example.com');
    await recordFailure(db(), id, new Date(), RULES.lockout);
    const run = await admin(['user:unlock', '--email', 'ghost@example.com']);
    expect(run).toMatchObject({ code: 1, stderr: 'admin: no account with the e-mail ghost@example.com\n' });
    expect(await failureCount(db(), id)).toBe(1);
  });
});

describe('user:disable and user:enable', () => {
  it('stops and restores sign-in, recording each change once', async () => {
    await admin(
      ['user:add', '--email', 'toggle@example.com', '--name', 'Tog Gle', '--password-stdin'],
      PASSWORD,
    );
    expect((await admin(['user:disable', '--email', 'toggle@example.com'])).stdout).toBe(
      'disabled toggle@example.com\n',
    );
    const disabled = await findAccountByEmail(db(), 'toggle@example.com');
    expect(disabled?.disabledAt).toBeInstanceOf(Date);
    expect((await login('toggle@example.com', PASSWORD)).outcome).toBe('failed');

    const again = await admin(['user:disable', '--email', 'toggle@example.com', '--json']);
    expect(again.json().result).toMatchObject({ changed: false });
    expect((await findAccountByEmail(db(), 'toggle@example.com'))?.disabledAt).toEqual(disabled?.disabledAt);

    expect((await admin(['user:enable', '--email', 'toggle@example.com'])).stdout).toBe(
      'enabled toggle@example.com\n',
    );
    expect((await findAccountByEmail(db(), 'toggle@example.com'))?.disabledAt).toBeNull();
    expect((await login('toggle@example.com', PASSWORD)).outcome).toBe('authenticated');
    expect((await admin(['user:enable', '--email', 'toggle@example.com'])).stdout).toBe(
      'toggle@example.com was already enabled\n',
    );

    const commands = (await auditOf(disabled?.id ?? ''))
      .filter((event) => event.event === 'admin')
      .map((event) => event.detail?.command);
    expect(commands).toEqual(['user:add', 'user:disable', 'user:enable']);
  });

  it.each(['user:disable', 'user:enable'])('%s reports an unknown account (exit 1)', async (command) => {
    const run = await admin([command, '--email', 'nobody@example.com']);
    expect(run).toMatchObject({ code: 1, stderr: 'admin: no account with the e-mail nobody@example.com\n' });
  });
});

describe('user:add --language and user:set-language', () => {
  it("write the account's mail in the language given, the invitation first, until it is cleared", async () => {
    const added = await admin([
      'user:add',
      '--email',
      'hans@example.com',
      '--name',
      'Hans Meier',
      '--language',
      'de',
    ]);
    expect(added.code).toBe(0);
    const [invitation] = await db().select().from(outbox).where(eq(outbox.recipient, 'hans@example.com'));
    expect(invitation?.subject).toContain('eingerichtet');
    expect((await findAccountByEmail(db(), 'hans@example.com'))?.locale).toBe('de');

    expect(
      (await admin(['user:set-language', '--email', 'hans@example.com', '--language', 'en'])).stdout,
    ).toBe("set the language of hans@example.com's mail\n");
    expect((await findAccountByEmail(db(), 'hans@example.com'))?.locale).toBe('en');
    expect(
      (await admin(['user:set-language', '--email', 'hans@example.com', '--language', 'en'])).stdout,
    ).toBe("hans@example.com's mail already had that language\n");
    // `request`: no language of its own, each mail in the language of the request that sends it.
    expect(
      (await admin(['user:set-language', '--email', 'hans@example.com', '--language', 'request'])).code,
    ).toBe(0);
    expect((await findAccountByEmail(db(), 'hans@example.com'))?.locale).toBeNull();
  });

  it('refuse a language the texts are not written in, naming the flag (exit 2)', async () => {
    const run = await admin([
      'user:add',
      '--email',
      'fr@example.com',
      '--name',
      'Fran Cois',
      '--language',
      'fr',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--language');
    expect(run.stderr).toContain('must be one of en, de');
    expect(await findAccountByEmail(db(), 'fr@example.com')).toBeNull();
  });
});
