import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { MailKind } from '../../src/mail/mail-kinds.ts';
import type { Database, Db } from '../../src/store/database.ts';
import { buildTestApp, type TestAppOptions } from './app.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { outboxMails } from './outbox.ts';

/**
 * What a test file works against: the real app on its own database (a copy of the run's migrated
 * template, emptied and handed on to the worker's next file), the clock that app reads, and the mail it
 * queued.
 */
export interface TestService {
  readonly app: FastifyInstance;
  /** One of the `instances` sharing the database, as a scaled-out service runs; 0 is `app`. */
  instance(index: number): FastifyInstance;
  readonly db: Db;
  readonly kind: Database['kind'];
  /** The file's database's connection URL on the PostgreSQL path, e.g. to open a second pool. */
  readonly databaseUrl: string | undefined;
  /** Mail the app queued (outbox rows), oldest first, optionally of one kind to one address. */
  mails(kind?: MailKind, to?: string): ReturnType<typeof outboxMails>;
}

export interface TestServiceOptions extends TestAppOptions {
  /** How many instances of the app share the database (default 1), e.g. for scale-out tests. */
  readonly instances?: number;
  /** Runs once the apps are ready, before the first test: register clients, create accounts. */
  readonly setUp?: (service: TestService) => Promise<void>;
  /** Runs after the last test, before the apps close: stop what `setUp` started. */
  readonly tearDown?: () => Promise<void>;
}

/**
 * Registers the file's (or describe block's) beforeAll/afterAll and returns an accessor for its
 * service: `const service = useTestService({ env: { LOCKOUT_MINUTES: '60' }, clock });` then
 * `service().app.inject(…)` inside tests. A test that moves time passes a `manualClock()` it keeps.
 */
export function useTestService({
  setUp,
  tearDown,
  instances = 1,
  ...appOptions
}: TestServiceOptions = {}): () => TestService {
  let database: TestDatabase | undefined;
  let current: TestService | undefined;
  const apps: FastifyInstance[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database.database;
    for (let n = 0; n < instances; n++) apps.push(await buildTestApp(db, appOptions));
    const [app] = apps;
    if (!app) throw new Error('a test service needs at least one instance');
    current = {
      app,
      instance(index) {
        const instance = apps[index];
        if (!instance) throw new Error(`the test service has ${apps.length} instances, not ${index + 1}`);
        return instance;
      },
      db,
      kind: database.kind,
      databaseUrl: database.databaseUrl,
      mails: (kind, to) => outboxMails(db, kind, to),
    };
    await setUp?.(current);
  });
  afterAll(async () => {
    try {
      await tearDown?.();
    } finally {
      for (const app of apps.splice(0)) await app.close();
      await database?.dispose();
    }
  });
  return () => {
    if (!current) throw new Error('the test service is only available inside tests and hooks');
    return current;
  };
}
