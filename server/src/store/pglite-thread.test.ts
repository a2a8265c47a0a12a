import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PGLITE_START_PARAMS } from './open-database.ts';
import type { PgliteClient } from './pglite-client.ts';
import { PgliteThread, reportLostDatabase } from './pglite-thread-client.ts';
import type { ThreadReply, ThreadRequest } from './pglite-thread-messages.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

const startParams = [...PGLITE_START_PARAMS];

const SCHEMA = `
  create table sample (
    id int primary key,
    at timestamptz, day date, span interval, doc jsonb, plain json, bytes bytea,
    big int8, exact numeric, words text[], flag boolean, ref uuid, stamps timestamptz[]
  );
  create table note (id int primary key, body text not null unique);
`;

const INSERT = `insert into sample values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`;
const VALUES = [
  1,
  new Date('2026-11-26T03:04:05.678Z'),
  '2026-02-28',
  '1 day 02:03:04',
  { nested: { list: [1, 'two', null] }, unicode: 'Grüße ✓' },
  JSON.stringify({ kept: 'as text' }),
  new Uint8Array([0, 1, 254, 255]),
  9_007_199_254_740_993n,
  '12345.678900',
  ['a', 'b,c', 'd"e'],
  true,
  '7d444840-9dc0-11d1-b245-5ffdce74fad2',
  ['2026-01-01T00:00:00Z'],
];

/** drizzle's pglite driver hands these: timestamps, dates and intervals kept as PostgreSQL's text. */
const DRIZZLE_PARSERS = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map(
    (type) => [type, (value: string) => `parsed:${value}`],
  ),
);

/** Resolves to 'pending' when `promise` has not settled by the time the event loop has gone round. */
function settledYet<T>(promise: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')))]);
}

let inProcess: PGlite;
let thread: PgliteThread;

beforeAll(async () => {
  [inProcess, thread] = await Promise.all([
    PGlite.create({ startParams }),
    PgliteThread.open({ startParams }),
  ]);
  for (const client of [inProcess, thread] as PgliteClient[]) {
    await client.exec(SCHEMA);
    await client.query(INSERT, VALUES);
  }
});

afterAll(async () => {
  await Promise.all([inProcess.close(), thread.close()]);
});

describe('PGlite in a worker thread', () => {
  // The tests count and list the rows of `note`: each starts on an empty table, whatever ran before.
  beforeEach(async () => {
    await thread.query('delete from note');
  });

  it('answers like PGlite in process: dates, JSON, bytea, int8, arrays, parsers and row modes', async () => {
    const text = 'select * from sample where id = $1';
    for (const options of [
      {},
      { rowMode: 'array' as const },
      { rowMode: 'array' as const, parsers: DRIZZLE_PARSERS },
    ]) {
      const expected = await inProcess.query(text, [1], options);
      const actual = await thread.query(text, [1], options);
      expect(actual).toEqual(expected);
    }
    const row = (await thread.query<Record<string, unknown>>(text, [1])).rows[0];
    expect(row?.at).toEqual(VALUES[1]);
    expect(row?.bytes).toEqual(VALUES[6]);
    expect(row?.big).toBe(VALUES[7]);
    expect(row?.doc).toEqual(VALUES[4]);
    const parsed = (await thread.query<unknown[]>(text, [1], { rowMode: 'array', parsers: DRIZZLE_PARSERS }))
      .rows[0];
    expect(parsed?.[1]).toBe('parsed:2026-11-26 03:04:05.678+00');
    expect(parsed?.[12]).toBe('parsed:{"2026-01-01 00:00:00+00"}');
    expect(await thread.exec('select 1 as one; select 2 as two')).toEqual(
      await inProcess.exec('select 1 as one; select 2 as two'),
    );
  });

  it('runs concurrent statements, each answered with its own result', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => thread.query<{ n: number }>('select $1::int * 2 as n', [i])),
    );
    expect(answers.map((answer) => answer.rows[0]?.n)).toEqual(Array.from({ length: 40 }, (_, i) => i * 2));
  });

  it('holds other statements until a transaction ends, and they do not see it once rolled back', async () => {
    let outsideDone = false;
    let outside: Promise<number> | undefined;
    const rolledBack = thread.transaction(async (tx) => {
      await tx.query('insert into note values (1, $1)', ['inside']);
      outside = thread.query<{ n: number }>('select count(*)::int as n from note').then((result) => {
        outsideDone = true;
        return result.rows[0]?.n ?? -1;
      });
      // Several round trips inside the transaction while the statement outside it waits.
      for (let i = 0; i < 5; i++) await tx.query('select pg_sleep(0.01)');
      expect(outsideDone).toBe(false);
      expect((await tx.query<{ n: number }>('select count(*)::int as n from note')).rows[0]?.n).toBe(1);
      throw new Error('undo');
    });
    await expect(rolledBack).rejects.toThrow('undo');
    // Had it run inside the transaction, it would have counted the row that was rolled back.
    expect(await outside).toBe(0);
  });

  it('rolls back on a database error inside a transaction and keeps the error fields', async () => {
    await thread.query('insert into note values (2, $1)', ['taken']);
    const failing = thread.transaction(async (tx) => {
      await tx.query('insert into note values (3, $1)', ['fresh']);
      await tx.query('insert into note values (4, $1)', ['taken']);
    });
    await expect(failing).rejects.toThrow('duplicate key value violates unique constraint "note_body_key"');
    await expect(failing).rejects.toMatchObject({
      code: '23505',
      constraint: 'note_body_key',
      table: 'note',
      detail: 'Key (body)=(taken) already exists.',
      severity: 'ERROR',
    });
    const ids = await thread.query<{ id: number }>('select id from note order by id');
    expect(ids.rows).toEqual([{ id: 2 }]);
  });

  it('commits what a transaction returns, and refuses statements on it afterwards', async () => {
    let kept: Parameters<Parameters<PgliteThread['transaction']>[0]>[0] | undefined;
    const value = await thread.transaction(async (tx) => {
      kept = tx;
      await tx.query('insert into note values (5, $1)', ['committed']);
      return 'done';
    });
    expect(value).toBe('done');
    expect(kept?.closed).toBe(true);
    await expect(kept?.query('select 1')).rejects.toThrow('Transaction is closed');
    expect((await thread.query('select id from note where id = 5')).rows).toEqual([{ id: 5 }]);
  });

  it('passes on each notification of a channel listened on, once its transaction committed, before its reply', async () => {
    const heard: string[] = [];
    const elsewhere: string[] = [];
    await thread.listen('note_changed', (payload) => heard.push(payload));
    await thread.listen('note_changed', (payload) => heard.push(`again ${payload}`));
    await thread.listen('other_channel', (payload) => elsewhere.push(payload));
    await thread.query(`select pg_notify('note_changed', 'one')`);
    // Heard before the statement's own reply came back.
    expect(heard).toEqual(['one', 'again one']);
    await expect(
      thread.transaction(async (tx) => {
        await tx.query(`select pg_notify('note_changed', 'rolled back')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await thread.transaction(async (tx) => {
      await tx.query(`select pg_notify('note_changed', 'two')`);
      // Not before the commit.
      expect(heard).toEqual(['one', 'again one']);
    });
    expect(heard).toEqual(['one', 'again one', 'two', 'again two']);
    expect(elsewhere).toEqual([]);
  });

  it('answers a statement on a transaction that is not open with a refusal, and goes on serving', async () => {
    // The thread itself, spoken to as its client does, with a request the client would refuse first.
    const worker = new Worker(new URL('./pglite-thread.ts', import.meta.url), {
      workerData: { startParams },
    });
    const failed = vi.fn();
    worker.on('error', failed);
    try {
      await once(worker, 'message');
      const ask = async (request: ThreadRequest): Promise<ThreadReply> => {
        const answered = once(worker, 'message');
        worker.postMessage(request);
        return (await answered)[0] as ThreadReply;
      };
      const query = { op: 'query' as const, params: [] as unknown[], options: { rawTypes: [] as number[] } };
      expect(await ask({ ...query, id: 1, text: 'select 1 as one', transaction: 7 })).toMatchObject({
        id: 1,
        ok: false,
        error: { message: 'Transaction is closed' },
      });
      expect(await ask({ ...query, id: 2, text: 'select 1 as one' })).toMatchObject({
        id: 2,
        ok: true,
        value: { rows: [{ one: 1 }] },
      });
      expect(failed).not.toHaveBeenCalled();
    } finally {
      await worker.terminate();
    }
  });
});

describe('PGlite in a worker thread on a data directory', () => {
  it('keeps data across close and reopen, dumps what PGlite loads, is not lost once closed and fails as an outage', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'keycard-pglite-thread-'));
    try {
      const first = await PgliteThread.open({ dataDir, startParams });
      const log = { error: vi.fn() };
      reportLostDatabase(first, log);
      await first.exec("create table kept (v text); insert into kept values ('across restarts')");
      await first.close();
      // Closed, not lost: nothing to report.
      expect(await settledYet(first.lost)).toBe('pending');
      expect(log.error).not.toHaveBeenCalled();
      const closed = first.query('select 1');
      await expect(closed).rejects.toThrow('PGlite is closed');
      expect(isDatabaseUnavailable(await closed.catch((error: unknown) => error))).toBe(true);

      const second = await PgliteThread.open({ dataDir, startParams });
      try {
        expect((await second.query('select v from kept')).rows).toEqual([{ v: 'across restarts' }]);
        const loaded = await PGlite.create({ loadDataDir: await second.dumpDataDir('none'), startParams });
        expect((await loaded.query('select v from kept')).rows).toEqual([{ v: 'across restarts' }]);
        await loaded.close();
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('PGlite in a worker thread that ends on its own', () => {
  const ending = new URL('../../test/support/ending-database-thread.ts', import.meta.url);

  it('reports itself lost with the reason, fails the statement it was running and every later one as an outage', async () => {
    const thread = await PgliteThread.open({ startParams }, ending);
    const running = thread.query('select 1');
    await expect(running).rejects.toThrow('PGlite is closed: its thread exited (70)');
    expect(isDatabaseUnavailable(await running.catch((error: unknown) => error))).toBe(true);
    expect((await thread.lost).message).toBe('PGlite is closed: its thread exited (70)');
    const later = thread.query('select 1');
    await expect(later).rejects.toThrow('PGlite is closed');
    expect(isDatabaseUnavailable(await later.catch((error: unknown) => error))).toBe(true);
  });

  it('logs one error naming the reason once the thread is lost', async () => {
    const thread = await PgliteThread.open({ startParams }, ending);
    const log = { error: vi.fn() };
    reportLostDatabase(thread, log);
    await thread.query('select 1').catch(() => undefined);
    await thread.lost;
    expect(log.error).toHaveBeenCalledTimes(1);
    const [details, message] = log.error.mock.calls[0] ?? [];
    expect(message).toBe('The embedded database stopped: restart the service');
    expect((details as { err: Error }).err.message).toBe('PGlite is closed: its thread exited (70)');
  });
});
