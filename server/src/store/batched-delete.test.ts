import { eq, gte, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isBatchedDelete, watchedDb } from '../../test/support/counting-db.ts';
import { useTestDatabase } from '../../test/support/database.ts';
import { deleteInBatches } from './batched-delete.ts';
import type { Db } from './database.ts';
import { rowsOf } from './rows.ts';
import { auditEvents } from './tables/index.ts';

const testDb = useTestDatabase();

/**
 * `db`, counting the batches run through it, and what each was bound to first: the row its batch
 * starts after. `answered` runs after each batch.
 */
function counting(
  db: Db,
  answered: () => void = () => {},
): { db: Db; statements(): number; afters: unknown[] } {
  const afters: unknown[] = [];
  const counted = watchedDb(
    db,
    (statement) => {
      if (isBatchedDelete(statement)) afters.push(statement.params[0]);
    },
    (statement) => {
      if (isBatchedDelete(statement)) answered();
    },
  );
  return { db: counted, statements: () => afters.length, afters };
}

async function recordEvents(event: string, count: number) {
  await testDb()
    .db.insert(auditEvents)
    .values(Array.from({ length: count }, () => ({ event, outcome: 'success' })));
}

const eventsOf = async (event: string) =>
  (await testDb().db.select().from(auditEvents).where(eq(auditEvents.event, event))).length;

describe('deleteInBatches', () => {
  it('deletes every matching row, a batch a statement, and leaves the others', async () => {
    await recordEvents('batched-gone', 5);
    await recordEvents('batched-kept', 3);
    const { db, statements } = counting(testDb().db);
    expect(
      await deleteInBatches(db, auditEvents, sql`${auditEvents.event} = 'batched-gone'`, { batch: 2 }),
    ).toBe(5);
    // 2, 2 and 1: the third found fewer than a batch, so none more was needed.
    expect(statements()).toBe(3);
    expect(await eventsOf('batched-gone')).toBe(0);
    expect(await eventsOf('batched-kept')).toBe(3);
  });

  it('starts each batch after the last row the one before deleted, not at the first page again', async () => {
    await recordEvents('batched-onward', 5);
    const ctids = rowsOf<{ address: string }>(
      await testDb().db.execute(
        sql`select ctid::text as address from ${auditEvents} where ${auditEvents.event} = 'batched-onward' order by ctid`,
      ),
    ).map((row) => row.address);
    const { db, afters } = counting(testDb().db);
    expect(
      await deleteInBatches(db, auditEvents, sql`${auditEvents.event} = 'batched-onward'`, { batch: 2 }),
    ).toBe(5);
    expect(afters).toEqual(['(0,0)', ctids[1], ctids[3]]);
  });

  it('starts no further statement once its signal is aborted (the service stops), and answers what went', async () => {
    await recordEvents('batched-stopped', 5);
    const stopping = new AbortController();
    const { db, statements } = counting(testDb().db, () => stopping.abort());
    const where = sql`${auditEvents.event} = 'batched-stopped'`;
    expect(await deleteInBatches(db, auditEvents, where, { batch: 2, signal: stopping.signal })).toBe(2);
    expect(statements()).toBe(1);
    expect(await eventsOf('batched-stopped')).toBe(3);
    // Aborted before it starts: not one statement.
    expect(await deleteInBatches(db, auditEvents, where, { signal: stopping.signal })).toBe(0);
    expect(statements()).toBe(1);
  });

  it('refuses a batch that could not end: none, a fraction', async () => {
    const where = sql`${auditEvents.event} = 'batched-none'`;
    await expect(deleteInBatches(testDb().db, auditEvents, where, { batch: 0 })).rejects.toThrow(
      new RangeError('a batch of 0 rows deletes nothing'),
    );
    await expect(deleteInBatches(testDb().db, auditEvents, where, { batch: 1.5 })).rejects.toThrow(
      RangeError,
    );
    expect(await deleteInBatches(testDb().db, auditEvents, where, { batch: 1 })).toBe(0);
  });

  it('asks once more when the last batch was full, and answers 0 for nothing to delete', async () => {
    await recordEvents('batched-even', 4);
    const { db, statements } = counting(testDb().db);
    expect(
      await deleteInBatches(db, auditEvents, sql`${auditEvents.event} = 'batched-even'`, { batch: 2 }),
    ).toBe(4);
    expect(statements()).toBe(3);
    expect(await deleteInBatches(testDb().db, auditEvents, sql`${auditEvents.event} = 'batched-even'`)).toBe(
      0,
    );
  });

  it('deletes with the default batch of 5000 rows a statement', async () => {
    await recordEvents('batched-many', 5001);
    const { db, statements } = counting(testDb().db);
    const condition = sql`${auditEvents.event} = 'batched-many' and ${gte(auditEvents.id, 0)}`;
    expect(await deleteInBatches(db, auditEvents, condition)).toBe(5001);
    expect(statements()).toBe(2);
  });
});
