import { loginResponse } from '@keycard/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listFailedMail, retryFailedMail } from '../src/mail/failed-mail.ts';
import { createMailService, type MailService } from '../src/mail/mail-service.ts';
import { REMOVED_LINK } from '../src/mail/outbox-repository.ts';
import { inviteUser } from '../src/recovery/invite-user.ts';
import type { MailingDeps } from '../src/recovery/recovery-deps.ts';
import { requestEmailChange } from '../src/recovery/request-email-change.ts';
import { databaseClock } from '../src/store/clock.ts';
import type { Db } from '../src/store/database.ts';
import { rowsOf } from '../src/store/rows.ts';
import { outbox } from '../src/store/tables/index.ts';
import { outboxRow, PUBLIC_URL, recordingLog, resetRequest, steppingClock } from './mail-kit.ts';
import { type SmtpSink, startSmtpSink } from './mail-sink.ts';
import { apiClient, codeOf, linkIn } from './recovery-kit.ts';
import { buildTestApp, testConfig } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';
import { createAccount, registerTestClient, startAuthorization, TestBrowser } from './support/oidc-flow.ts';

/**
 * Issue 15: a copy of the database must hold no code that still opens an account. Codes are stored
 * only as hashes; a mail keeps its links (and so its codes) only while it may still be sent.
 */

const testDb = useTestDatabase();
const db = () => testDb().db;
const MINUTE = 60_000;
const cleanup: (() => Promise<void>)[] = [];

// Each test starts with an empty outbox: another test's mail, failed or still due, would be sent,
// counted or scanned with its own.
beforeEach(async () => {
  await db().delete(outbox);
});

afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

/** Every row of every table of the database, each as one text (all columns, JSON and arrays too). */
async function everyStoredRow(database: Db): Promise<string[]> {
  const tables = rowsOf<{ name: string }>(
    await database.execute(sql`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'`),
  );
  expect(tables.map((table) => table.name)).toEqual(
    expect.arrayContaining(['mail_outbox', 'verification_code', 'audit_event', 'account']),
  );
  const rows: string[] = [];
  for (const { name } of tables) {
    const table = sql.identifier(name);
    const result = await database.execute(sql`select t::text as row from ${table} as t`);
    rows.push(...rowsOf<{ row: string }>(result).map((row) => row.row));
  }
  return rows;
}

function holding(rows: readonly string[], secrets: readonly string[]): string[] {
  return secrets.filter((secret) => rows.some((row) => row.includes(secret)));
}

describe('no live code at rest after the mail carrying it was sent (SMTP)', () => {
  let sink: SmtpSink;
  let app: FastifyInstance;

  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await buildTestApp(db(), { env: { SMTP_URL: sink.url, LOCKOUT_THRESHOLD: '1' } });
    await registerTestClient(db());
  });

  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  it('after a password reset, an invitation, an e-mail change and an unlock mail, no table holds their codes', async () => {
    const api = await apiClient(app);
    const publicUrl = testConfig().publicUrl;
    const deps: MailingDeps = {
      db: db(),
      clock: databaseClock(db()),
      mail: app.mail,
      publicUrl,
      codeLifetimes: testConfig().codeLifetimes,
    };
    const resetting = await createAccount(db(), 'at-rest-reset@example.com', 'Correct-Horse-42');
    const forgot = await api.post('/api/forgotpassword', {
      email: resetting.email,
      returnUrl: null,
      locationSearch: '',
    });
    expect(forgot.statusCode).toBe(200);
    const invited = await createAccount(db(), 'at-rest-invite@example.com', null);
    expect(await inviteUser(deps, invited.id)).toMatchObject({ outcome: 'invited' });
    const moving = await createAccount(db(), 'at-rest-old@example.com', 'Correct-Horse-42');
    expect(await requestEmailChange(deps, moving.id, 'at-rest-new@example.com')).toMatchObject({
      outcome: 'requested',
    });
    // LOCKOUT_THRESHOLD 1: one wrong password locks the account and queues its unlock mail.
    await createAccount(db(), 'at-rest-locked@example.com', 'Correct-Horse-42');
    const browser = new TestBrowser(app);
    const { returnUrl } = await startAuthorization(browser);
    await browser.loadSpa();
    const wrong = await browser.post('/api/login', {
      Username: 'at-rest-locked@example.com',
      Password: 'Not-The-Password-1',
      ReturnUrl: returnUrl,
    });
    expect(loginResponse.parse(wrong.json()).verificationType).toBe(3);

    const beforeSending = await everyStoredRow(db());
    await app.mail.runOnce();
    const received = await sink.waitFor(5);
    const links = received.flatMap((mail) =>
      mail.parsed.text?.includes(publicUrl) ? [linkIn(mail.parsed.text)] : [],
    );
    expect(links.map((link) => new URL(link).pathname.split('/').slice(0, -1).join('/')).sort()).toEqual([
      '/resetPassword/1',
      '/resetPassword/6',
      '/unlock',
      '/verifyNewEmail',
    ]);
    const codes = links.map(codeOf);
    expect(codes.every((code) => /^[\w-]{43}$/.test(code))).toBe(true);

    // The scan reads where the codes were: the queued mail held every one of them.
    expect(holding(beforeSending, codes)).toEqual(codes);
    const afterSending = await everyStoredRow(db());
    expect(holding(afterSending, codes)).toEqual([]);
    expect(holding(afterSending, links)).toEqual([]);

    // The reset code still works: it is live, only no stored copy of it is left.
    const check = await api.post('/api/CheckVerification', {
      verificationCode: codeOf(links.find((link) => link.includes('/resetPassword/1/')) ?? ''),
      verificationType: 1,
    });
    expect(check.json()).toMatchObject({ isValid: true });

    const sent = await db().select().from(outbox);
    expect(sent.every((row) => row.sentAt !== null)).toBe(true);
    expect(sent.filter((row) => row.textBody.includes(REMOVED_LINK))).toHaveLength(4);
    expect(sent.filter((row) => row.htmlBody.includes(REMOVED_LINK))).toHaveLength(4);
  });
});

describe('mail that could not be sent keeps its link only while its code works', () => {
  function service(options: { smtpUrl?: string; clock: ReturnType<typeof steppingClock> }): MailService {
    const mail = createMailService({
      config: testConfig({ PUBLIC_URL, ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl } : {}) }),
      db: db(),
      log: recordingLog(),
      clock: options.clock,
    });
    cleanup.push(() => mail.stop());
    return mail;
  }

  it('a message failed for good can be retried until its code expires, then loses its link and stays failed', async () => {
    const clock = steppingClock();
    const rejecting = await startSmtpSink({ answer: () => ({ code: 550, message: 'No such mailbox' }) });
    cleanup.push(() => rejecting.close());
    const expiresAt = new Date((await clock.now()).getTime() + 60 * MINUTE);
    const dead = service({ smtpUrl: rejecting.url, clock });
    const { id } = await dead.queue(db(), {
      ...resetRequest('failed@example.test', 'failed-code'),
      expiresAt,
    });
    expect(await dead.runOnce()).toBe(1);
    const failed = await outboxRow(db(), id);
    expect(failed.failedAt).not.toBeNull();
    // Still retryable: the link works for another hour.
    expect(failed.textBody).toContain(`${PUBLIC_URL}/resetPassword/1/failed-code`);
    expect((await listFailedMail(db())).map((mail) => mail.id)).toContain(id);

    clock.advance(60 * MINUTE);
    expect(await dead.runOnce()).toBe(0);
    const expired = await outboxRow(db(), id);
    expect(expired.textBody).not.toContain('failed-code');
    expect(expired.htmlBody).not.toContain('failed-code');
    expect(expired.textBody).toContain(REMOVED_LINK);
    // mail:failed --retry compares with the database's clock, which the test clock ran ahead of.
    await db()
      .update(outbox)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(sql`${outbox.id} = ${id}`);
    expect(await retryFailedMail(db(), [id])).toEqual([]);
  });

  it('a message whose link expires while it waits to be retried is failed without its link', async () => {
    const clock = steppingClock();
    const dead = service({ smtpUrl: 'smtp://127.0.0.1:9', clock });
    const expiresAt = new Date((await clock.now()).getTime() + 60 * MINUTE);
    const { id } = await dead.queue(db(), {
      ...resetRequest('waiting@example.test', 'waiting-code'),
      expiresAt,
    });
    expect(await dead.runOnce()).toBe(1);
    expect((await outboxRow(db(), id)).textBody).toContain('waiting-code');
    clock.advance(60 * MINUTE);
    await dead.runOnce();
    const row = await outboxRow(db(), id);
    expect(row.failedAt).not.toBeNull();
    expect(`${row.textBody}${row.htmlBody}`).not.toContain('waiting-code');
  });

  it('the development mailbox shows a sent message’s link until its code expires', async () => {
    const clock = steppingClock();
    const dev = service({ clock });
    expect(dev.transport).toBe('dev-mailbox');
    const expiresAt = new Date((await clock.now()).getTime() + 60 * MINUTE);
    const { id } = await dev.queue(db(), { ...resetRequest('dev@example.test', 'dev-code'), expiresAt });
    expect(await dev.runOnce()).toBe(1);
    const sent = await outboxRow(db(), id);
    expect(sent.sentAt).not.toBeNull();
    expect(sent.textBody).toContain(`${PUBLIC_URL}/resetPassword/1/dev-code`);
    clock.advance(59 * MINUTE);
    await dev.runOnce();
    expect((await outboxRow(db(), id)).textBody).toContain('dev-code');
    clock.advance(MINUTE);
    await dev.runOnce();
    const cleared = await outboxRow(db(), id);
    expect(cleared.textBody).not.toContain('dev-code');
    expect(cleared.linksRemovedAt).not.toBeNull();
  });

  it('looks again only at messages whose links are still in place, not at every finished one on every pass', async () => {
    const clock = steppingClock();
    const now = await clock.now();
    const sentBefore = new Date(now.getTime() - 2 * 60 * MINUTE);
    const expired = new Date(now.getTime() - 60 * MINUTE);
    // Finished and expired, one with its links already removed: a body holding an address anyway
    // (none can come from the service; this one stands for what a pass must not read again).
    const finished = (code: string) => ({
      kind: 'password_reset',
      recipient: `${code}@example.test`,
      subject: 'Reset',
      textBody: `Reset: ${PUBLIC_URL}/resetPassword/1/${code}`,
      htmlBody: `<a href="${PUBLIC_URL}/resetPassword/1/${code}">Reset</a>`,
      sentAt: sentBefore,
      expiresAt: expired,
    });
    const [kept, removed] = await db()
      .insert(outbox)
      .values([finished('kept-code'), { ...finished('removed-code'), linksRemovedAt: sentBefore }])
      .returning({ id: outbox.id });
    await service({ clock }).runOnce();
    const keptRow = await outboxRow(db(), kept?.id ?? '');
    expect(keptRow.textBody).not.toContain('kept-code');
    expect(keptRow.linksRemovedAt).not.toBeNull();
    const removedRow = await outboxRow(db(), removed?.id ?? '');
    expect(removedRow.textBody).toContain('removed-code');
    expect(removedRow.linksRemovedAt).toEqual(sentBefore);
  });
});
