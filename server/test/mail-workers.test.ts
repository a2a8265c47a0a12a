import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMailService, type MailService } from '../src/mail/mail-service.ts';
import { claimNextDue } from '../src/mail/outbox-repository.ts';
import type { WorkerTiming } from '../src/mail/worker.ts';
import type { Database, Db } from '../src/store/database.ts';
import { openDatabase } from '../src/store/open-database.ts';
import { outbox } from '../src/store/tables/mail.ts';
import { eventually, outboxRow, PUBLIC_URL, recordingLog, resetRequest, steppingClock } from './mail-kit.ts';
import { type SmtpSink, type SmtpSinkOptions, startSilentServer, startSmtpSink } from './mail-sink.ts';
import { testConfig } from './support/app.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';

/**
 * Several workers on one database. On PostgreSQL the second "instance" has its own pool, as a second
 * service process would; PGlite has one connection per database, so there both share it.
 */
let testDatabase: TestDatabase;
let second: Database | undefined;
const db = (): Db => testDatabase.database.db;
const otherDb = (): Db => second?.db ?? db();
const cleanup: (() => Promise<void>)[] = [];

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  if (testDatabase.databaseUrl) second = await openDatabase({ databaseUrl: testDatabase.databaseUrl });
});

afterAll(async () => {
  await second?.close();
  await testDatabase.dispose();
});

beforeEach(async () => {
  await db().delete(outbox);
});

afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function sinkFor(options?: SmtpSinkOptions): Promise<SmtpSink> {
  const sink = await startSmtpSink(options);
  cleanup.push(() => sink.close());
  return sink;
}

function serviceFor(
  smtpUrl: string,
  options: { database?: Db; clock?: ReturnType<typeof steppingClock>; timing?: Partial<WorkerTiming> } = {},
): MailService {
  const service = createMailService({
    config: testConfig({ PUBLIC_URL, SMTP_URL: smtpUrl }),
    db: options.database ?? db(),
    log: recordingLog(),
    clock: options.clock,
    timing: options.timing,
  });
  cleanup.push(() => service.stop());
  return service;
}

async function queueMany(service: MailService, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    ids.push((await service.queue(db(), resetRequest(`user${i}@example.test`, `code-${i}`))).id);
  }
  return ids;
}

describe('several workers on one database (DESIGN §1 Scale-out)', () => {
  it('concurrent claims of one due message: exactly one claimer gets it', async () => {
    const service = serviceFor('smtp://127.0.0.1:9');
    await queueMany(service, 1);
    const now = new Date(Date.now() + 1_000);
    const lease = new Date(now.getTime() + 60_000);
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) => claimNextDue(i % 2 === 0 ? db() : otherDb(), now, lease)),
    );
    expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
  });

  it('two workers draining together send every message exactly once', async () => {
    const sink = await sinkFor({ delayMs: 5 });
    const first = serviceFor(sink.url);
    const secondWorker = serviceFor(sink.url, { database: otherDb() });
    const ids = await queueMany(first, 24);

    const [a, b] = await Promise.all([first.runOnce(), secondWorker.runOnce()]);
    expect(a + b).toBe(24);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    const received = await sink.waitFor(24);
    const messageIds = received.map((mail) => mail.parsed.messageId);
    expect(new Set(messageIds).size).toBe(24);
    expect(messageIds.sort()).toEqual(ids.map((id) => `<${id}@login.example.test>`).sort());
    // Nothing is left for either worker to send again: a message sent twice would have stayed due.
    expect(await first.runOnce()).toBe(0);
    expect(await secondWorker.runOnce()).toBe(0);
    expect(sink.received).toHaveLength(24);
  });

  it('a message claimed by a worker that died mid-send is sent by another once the claim lapses', async () => {
    const hanging = await startSilentServer();
    cleanup.push(() => hanging.close());
    const dying = serviceFor(hanging.url, { timing: { stopGraceMs: 50 } });
    const { id } = await dying.queue(db(), resetRequest('dana@example.test', 'survives'));
    const stuck = dying.runOnce(); // hangs on the silent server, as a killed process would
    await eventually(async () => (await outboxRow(db(), id)).lockedUntil !== null);

    const sink = await sinkFor();
    const clock = steppingClock();
    const survivor = serviceFor(sink.url, { database: otherDb(), clock });
    expect(await survivor.runOnce()).toBe(0); // still claimed
    clock.advance(5 * 60_000 + 1_000); // the default lease has lapsed
    expect(await survivor.runOnce()).toBe(1);
    const [received] = await sink.waitFor(1);
    expect(received?.parsed.text).toContain(`${PUBLIC_URL}/resetPassword/1/survives`);

    await dying.stop();
    await stuck;
    expect((await outboxRow(db(), id)).sentAt).not.toBeNull();
  });
});

describe('worker lifecycle', () => {
  it('start() sends mail queued while no worker ran (e.g. before a restart)', async () => {
    const sink = await sinkFor();
    const service = serviceFor(sink.url, { timing: { pollMs: 60_000 } });
    await queueMany(service, 3);
    service.start();
    await sink.waitFor(3);
  });

  it('nudge() sends a new message at once instead of at the next poll', async () => {
    const sink = await sinkFor();
    // No poll comes within the test's time: whatever is sent, the nudge sent.
    const service = serviceFor(sink.url, { timing: { pollMs: 60 * 60_000 } });
    service.start();
    // runOnce() waits for the pass start() began; neither finds anything.
    expect(await service.runOnce()).toBe(0);
    await service.queue(db(), resetRequest('dana@example.test'));
    service.nudge();
    await sink.waitFor(1);
  });

  it('polls: a message queued by another process goes out without a nudge', async () => {
    const sink = await sinkFor();
    const service = serviceFor(sink.url, { timing: { pollMs: 50 } });
    service.start();
    // Queued once the passes of start() and runOnce() found nothing, so only a later poll sends it.
    expect(await service.runOnce()).toBe(0);
    await service.queue(otherDb(), resetRequest('cli@example.test'));
    await sink.waitFor(1);
  });

  it('stop() waits for a send in progress to finish', async () => {
    const sink = await sinkFor({ delayMs: 300 });
    const service = serviceFor(sink.url);
    const { id } = await service.queue(db(), resetRequest('dana@example.test'));
    service.start();
    await eventually(async () => (await outboxRow(db(), id)).lockedUntil !== null);
    await service.stop();
    expect((await outboxRow(db(), id)).sentAt).not.toBeNull();
    expect(sink.received).toHaveLength(1);
  });

  it('stop() cancels a send that hangs past the grace time and leaves the message due, uncounted', async () => {
    const hanging = await startSilentServer();
    cleanup.push(() => hanging.close());
    const service = serviceFor(hanging.url, { timing: { stopGraceMs: 100 } });
    const { id } = await service.queue(db(), resetRequest('dana@example.test'));
    service.start();
    await eventually(async () => (await outboxRow(db(), id)).lockedUntil !== null);
    // The silent server never answers: stop() returns only because it cancelled the send, and a
    // cancelled send, unlike one that timed out, counts no attempt.
    await service.stop();
    expect(await outboxRow(db(), id)).toMatchObject({
      sentAt: null,
      failedAt: null,
      attempts: 0,
      lockedUntil: null,
    });
  });
});
