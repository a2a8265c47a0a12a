import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { MailKind } from '../../src/mail/mail-kinds.ts';
import type { Database, Db } from '../../src/store/database.ts';
import { buildTestApp, type TestAppOptions } from './app.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { outboxMails } from './outbox.ts';

/**
 * What a test file works against: the real app on its own database (a copy of the run's migrated
 * template on PGlite, a temporary database on PostgreSQL), the clock that app reads, and the mail it
 * queued.
 */
export interface TestService {
  readonly app: FastifyInstance;
  readonly db: Db;
  readonly kind: Database['kind'];
  /** The temporary database's connection URL on the PostgreSQL path, e.g. to open a second pool. */
  readonly databaseUrl: string | undefined;
  /** Mail the app queued (outbox rows), oldest first, optionally of one kind to one address. */
  mails(kind?: MailKind, to?: string): ReturnType<typeof outboxMails>;
}

export interface TestServiceOptions extends TestAppOptions {
  /** Runs once the app is ready, before the file's first test: register clients, create accounts. */
  readonly setUp?: (service: TestService) => Promise<void>;
}

/**
 * Registers the file's beforeAll/afterAll and returns an accessor for its service:
 * `const service = useTestService({ env: { LOCKOUT_MINUTES: '60' }, clock });` then
 * `service().app.inject(…)` inside tests. A test that moves time passes a `manualClock()` it keeps.
 */
export function useTestService({ setUp, ...appOptions }: TestServiceOptions = {}): () => TestService {
  let database: TestDatabase | undefined;
  let current: TestService | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database.database;
    const app = await buildTestApp(db, appOptions);
    current = {
      app,
      db,
      kind: database.kind,
      databaseUrl: database.databaseUrl,
      mails: (kind, to) => outboxMails(db, kind, to),
    };
    await setUp?.(current);
  });
  afterAll(async () => {
    await current?.app.close();
    await database?.dispose();
  });
  return () => {
    if (!current) throw new Error('the test service is only available inside tests and hooks');
    return current;
  };
}
