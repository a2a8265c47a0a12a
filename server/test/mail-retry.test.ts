import { VerificationType } from '@keycard/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listFailedMail, retryFailedMail } from '../src/mail/failed-mail.ts';
import { EXPIRED_ERROR } from '../src/mail/outbox-repository.ts';
import { MAX_ATTEMPTS, RETRY_MAX_DELAY_MS, retryDelayMs } from '../src/mail/retry-schedule.ts';
import { checkVerification } from '../src/recovery/check-verification.ts';
import { requestPasswordReset } from '../src/recovery/forgot-password.ts';
import { outbox } from '../src/store/tables/mail.ts';
import { runAdmin } from './admin-harness.ts';
import {
  outboxRow,
  PUBLIC_URL,
  recordingLog,
  resetRequest,
  steppingClock,
  useMailServices,
} from './mail-kit.ts';
import { deadPort } from './mail-sink.ts';
import { codeOf, recoveryDeps } from './recovery-kit.ts';
import { useTestDatabase } from './support/database.ts';
import { createAccount } from './support/oidc-flow.ts';

const testDb = useTestDatabase();
const HOUR = 3_600_000;
const { sinkFor, serviceFor } = useMailServices(testDb);

describe('retries with back-off (DESIGN §2 Mail)', () => {
  it('a server answering 451 first delivers the message at the next attempt, link intact', async () => {
    const sink = await sinkFor({
      answer: (attempt) => (attempt === 1 ? { code: 451, message: 'Try later' } : 'accept'),
    });
    const clock = steppingClock();
    const service = serviceFor(sink.url, clock);
    const { id } = await service.queue(testDb().db, resetRequest('dana@example.test', 'still-valid'));

    const triedAt = await clock.now();
    expect(await service.runOnce()).toBe(1);
    const doneAt = await clock.now();
    const afterFirst = await outboxRow(testDb().db, id);
    expect(afterFirst).toMatchObject({ attempts: 1, sentAt: null, failedAt: null, lockedUntil: null });
    expect(afterFirst.lastError).toMatch(/451/);
    // 30 s after the failed attempt, which happened between triedAt and doneAt (however long the
    // SMTP exchange took on a loaded machine).
    const nextAttempt = afterFirst.nextAttemptAt.getTime();
    expect(nextAttempt - triedAt.getTime()).toBeGreaterThanOrEqual(29_000);
    expect(nextAttempt - doneAt.getTime()).toBeLessThanOrEqual(31_000);

    expect(await service.runOnce()).toBe(0); // not due yet
    expect(sink.received).toHaveLength(0);

    clock.advance(31_000);
    expect(await service.runOnce()).toBe(1);
    const [received] = await sink.waitFor(1);
    expect(received?.parsed.text?.split('\n')).toContain(`${PUBLIC_URL}/resetPassword/1/still-valid`);
    const delivered = await outboxRow(testDb().db, id);
    expect(delivered.sentAt).not.toBeNull();
    expect(delivered.lastError).toBeNull();
  });

  it('a reset code mailed while the server answers 451 still verifies once the retry delivers it', async () => {
    const sink = await sinkFor({
      answer: (attempt) => (attempt === 1 ? { code: 451, message: 'Try later' } : 'accept'),
    });
    const clock = steppingClock();
    const service = serviceFor(sink.url, clock);
    const account = await createAccount(testDb().db, 'retry-link@example.test', 'Retry-Link-Pass-42');
    const deps = recoveryDeps(testDb().db, { mail: service, publicUrl: PUBLIC_URL, clock });
    await requestPasswordReset(deps, { email: account.email, ip: null, language: 'en' });

    expect(await service.runOnce()).toBe(1);
    expect(sink.received).toHaveLength(0);
    clock.advance(31_000);
    expect(await service.runOnce()).toBe(1);
    const [received] = await sink.waitFor(1);
    const link = received?.parsed.text
      ?.split('\n')
      .find((line) => line.startsWith(`${PUBLIC_URL}/resetPassword/1/`));
    expect(link).toBeDefined();
    const check = await checkVerification(deps, {
      code: codeOf(link ?? ''),
      type: VerificationType.PasswordReset,
      ip: null,
    });
    expect(check).toEqual({ isValid: true, userName: account.displayName });
  });

  it('a message whose link expires during an outage is failed, not delivered late, and not retried', async () => {
    const clock = steppingClock();
    const dead = serviceFor(`smtp://127.0.0.1:${await deadPort()}`, clock);
    const expiresAt = new Date((await clock.now()).getTime() + 60_000);
    const { id } = await dead.queue(testDb().db, {
      ...resetRequest('late@example.test', 'dead-soon'),
      expiresAt,
    });
    const { id: lasting } = await dead.queue(testDb().db, resetRequest('lasting@example.test', 'no-expiry'));
    expect(await dead.runOnce()).toBe(2);
    expect(await outboxRow(testDb().db, id)).toMatchObject({ attempts: 1, failedAt: null, expiresAt });

    clock.advance(2 * 60_000);
    const sink = await sinkFor();
    const live = serviceFor(sink.url, clock);
    expect(await live.runOnce()).toBe(1);
    const [received] = await sink.waitFor(1);
    expect(received?.parsed.text).toContain('no-expiry');
    const expired = await outboxRow(testDb().db, id);
    expect(expired).toMatchObject({ sentAt: null, lastError: EXPIRED_ERROR });
    expect(expired.failedAt).not.toBeNull();
    expect((await outboxRow(testDb().db, lasting)).sentAt).not.toBeNull();
    // mail:failed --retry compares with the database's clock, which the test clock ran ahead of.
    await testDb()
      .db.update(outbox)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(outbox.id, id));
    expect(await retryFailedMail(testDb().db)).toEqual([]);
    expect(await live.runOnce()).toBe(0);
    expect(sink.received).toHaveLength(1);
  });

  it('a dead server: attempts grow with doubling waits until the cap, then the message is failed', async () => {
    const clock = steppingClock();
    const log = recordingLog();
    const service = serviceFor(`smtp://127.0.0.1:${await deadPort()}`, clock, log);
    const { id } = await service.queue(testDb().db, resetRequest('dana@example.test'));

    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const triedAt = await clock.now();
      expect(await service.runOnce()).toBe(1);
      const doneAt = await clock.now();
      const row = await outboxRow(testDb().db, id);
      expect(row.attempts).toBe(attempt);
      expect(row.lastError).toMatch(/ECONNREFUSED/);
      if (attempt < MAX_ATTEMPTS) {
        expect(row.failedAt).toBeNull();
        // The wait counts from the failed attempt, somewhere between triedAt and doneAt.
        const expected = Math.min(30_000 * 2 ** (attempt - 1), RETRY_MAX_DELAY_MS);
        const nextAttempt = row.nextAttemptAt.getTime();
        expect(nextAttempt - triedAt.getTime(), `wait after attempt ${attempt}`).toBeGreaterThan(
          expected - 1_000,
        );
        expect(nextAttempt - doneAt.getTime(), `wait after attempt ${attempt}`).toBeLessThan(
          expected + 1_000,
        );
      } else {
        expect(row.failedAt).not.toBeNull();
      }
      clock.advance(2 * HOUR);
    }
    expect(await service.runOnce()).toBe(0); // failed stays failed
    expect(log.lines.filter((line) => line.startsWith('Mail delivery failed; will retry'))).toHaveLength(
      MAX_ATTEMPTS - 1,
    );
    expect(log.lines.at(-1)).toMatch(/^Mail delivery failed for good/);
  });

  it('npm run admin -- mail:failed lists it, --retry makes it due, and the worker then delivers it', async () => {
    const deadService = serviceFor(`smtp://127.0.0.1:${await deadPort()}`);
    const { id } = await deadService.queue(testDb().db, resetRequest('cli@example.test', 'by-cli'));
    await testDb()
      .db.update(outbox)
      .set({ attempts: MAX_ATTEMPTS - 1 });
    expect(await deadService.runOnce()).toBe(1);

    const listed = await runAdmin(['mail:failed'], { db: testDb().db });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('1 failed message, most recent failure first');
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toMatch(/to {10}cli@example\.test/);
    expect(listed.stdout).not.toContain('by-cli'); // the body's link stays out

    const retried = await runAdmin(['mail:failed', '--retry', '--json'], { db: testDb().db });
    expect(retried.json()).toMatchObject({ ok: true, result: { retried: true, messages: [{ id }] } });
    expect(await outboxRow(testDb().db, id)).toMatchObject({ failedAt: null, attempts: 0 });
    expect((await runAdmin(['mail:failed'], { db: testDb().db })).stdout).toContain('no failed mail');

    const sink = await sinkFor();
    expect(await serviceFor(sink.url).runOnce()).toBe(1);
    const [received] = await sink.waitFor(1);
    expect(received?.parsed.text).toContain(`${PUBLIC_URL}/resetPassword/1/by-cli`);
  });

  it('a failed message is listed without its body and, once retried, delivered', async () => {
    const deadService = serviceFor(`smtp://127.0.0.1:${await deadPort()}`);
    const { id } = await deadService.queue(testDb().db, resetRequest('dana@example.test', 'listed'));
    const { id: sentId } = await deadService.queue(testDb().db, resetRequest('sent@example.test'));
    await testDb().db.update(outbox).set({ sentAt: new Date() }).where(eq(outbox.id, sentId));
    await testDb()
      .db.update(outbox)
      .set({ attempts: MAX_ATTEMPTS - 1 });
    expect(await deadService.runOnce()).toBe(1);

    const failed = await listFailedMail(testDb().db);
    expect(failed).toEqual([
      {
        id,
        kind: 'password_reset',
        recipient: 'dana@example.test',
        subject: 'Reset your Keycard password',
        createdAt: expect.any(Date),
        failedAt: expect.any(Date),
        attempts: MAX_ATTEMPTS,
        lastError: expect.stringMatching(/ECONNREFUSED/),
      },
    ]);
    expect(JSON.stringify(failed)).not.toContain('listed'); // the code in the link stays out

    expect(
      await retryFailedMail(testDb().db, ['not-a-uuid', '00000000-0000-4000-8000-000000000000', sentId]),
    ).toEqual([]);
    expect(await retryFailedMail(testDb().db, [id])).toEqual([id]);
    expect(await outboxRow(testDb().db, id)).toMatchObject({
      attempts: 0,
      failedAt: null,
      lockedUntil: null,
    });
    expect(await listFailedMail(testDb().db)).toEqual([]);

    const sink = await sinkFor();
    expect(await serviceFor(sink.url).runOnce()).toBe(1);
    const [received] = await sink.waitFor(1);
    expect(received?.parsed.text).toContain(`${PUBLIC_URL}/resetPassword/1/listed`);
    expect((await outboxRow(testDb().db, id)).sentAt).not.toBeNull();
  });

  it('retryFailedMail without ids retries every failed message', async () => {
    const service = serviceFor(`smtp://127.0.0.1:${await deadPort()}`);
    for (const to of ['a@example.test', 'b@example.test']) await service.queue(testDb().db, resetRequest(to));
    await testDb()
      .db.update(outbox)
      .set({ attempts: MAX_ATTEMPTS - 1 });
    expect(await service.runOnce()).toBe(2);
    expect(await listFailedMail(testDb().db)).toHaveLength(2);
    expect(await retryFailedMail(testDb().db)).toHaveLength(2);
    expect(await listFailedMail(testDb().db)).toEqual([]);
  });

  it('a permanent rejection (550) fails the message at once instead of retrying it', async () => {
    const sink = await sinkFor({ answer: () => ({ code: 550, message: 'No such mailbox' }) });
    const service = serviceFor(sink.url);
    const { id } = await service.queue(testDb().db, resetRequest('gone@example.test'));
    expect(await service.runOnce()).toBe(1);
    const row = await outboxRow(testDb().db, id);
    expect(row.attempts).toBe(1);
    expect(row.failedAt).not.toBeNull();
    expect(row.lastError).toMatch(/550/);
  });

  it('a refused sender (553 to MAIL FROM) is retried, not failed: MAIL_FROM is configuration, and once it is mended the retry delivers', async () => {
    let refusing = true;
    const sink = await sinkFor({
      refuseSender: (address) =>
        refusing ? { code: 553, message: `5.7.1 <${address}>: Sender address rejected` } : undefined,
    });
    const clock = steppingClock();
    const service = serviceFor(sink.url, clock);
    const { id } = await service.queue(testDb().db, resetRequest('waiting@example.test'));
    expect(await service.runOnce()).toBe(1);
    const row = await outboxRow(testDb().db, id);
    expect(row).toMatchObject({ attempts: 1, failedAt: null, sentAt: null });
    expect(row.lastError).toMatch(/553/);
    refusing = false;
    clock.advance(31_000);
    expect(await service.runOnce()).toBe(1);
    const [received] = await sink.waitFor(1);
    expect(received?.to).toEqual(['waiting@example.test']);
    expect((await outboxRow(testDb().db, id)).sentAt).not.toBeNull();
  });

  it("logs a rejection by the message and the reply's codes, keeping the reply that quotes the address with the message", async () => {
    const sink = await sinkFor({
      answer: () => ({ code: 550, message: '5.1.1 <gone@example.test>: Recipient address rejected' }),
    });
    const log = recordingLog();
    const service = serviceFor(sink.url, steppingClock(), log);
    const { id } = await service.queue(testDb().db, resetRequest('gone@example.test'));
    expect(await service.runOnce()).toBe(1);
    expect((await outboxRow(testDb().db, id)).lastError).toContain('gone@example.test');
    const failure = log.lines.find((line) => line.startsWith('Mail delivery failed for good'));
    expect(failure).toContain(`"mailId":"${id}"`);
    expect(failure).toContain('"responseCode":550');
    expect(log.lines.join('\n')).not.toContain('gone@example.test');
  });

  it('never stores the SMTP credentials in last_error', async () => {
    const sink = await sinkFor({ auth: { user: 'keycard', pass: 'Right-Secret-1234' } });
    const wrongUrl = sink.url.replace('Right-Secret-1234', 'Wrong-Secret-9876');
    const log = recordingLog();
    const service = serviceFor(wrongUrl, steppingClock(), log);
    const { id } = await service.queue(testDb().db, resetRequest('dana@example.test'));
    expect(await service.runOnce()).toBe(1);
    const row = await outboxRow(testDb().db, id);
    expect(row.lastError).toMatch(/535|auth/i);
    for (const text of [row.lastError ?? '', ...log.lines]) {
      expect(text).not.toContain('Wrong-Secret-9876');
      expect(text).not.toContain('Right-Secret-1234');
    }
  });
});

describe('retryDelayMs', () => {
  it('doubles from 30 s, is capped at one hour and jitters by at most 20 %', () => {
    expect([1, 2, 3, 4, 8, 20].map((n) => retryDelayMs(n, () => 0.5))).toEqual([
      30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000,
    ]);
    expect(retryDelayMs(1, () => 0)).toBe(24_000);
    expect(retryDelayMs(1, () => 0.999_999)).toBe(36_000);
  });
});
