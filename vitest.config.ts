import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests that start the service or the admin CLI as processes on the embedded store, whatever
 * DATABASE_URL says (they remove it from the child's environment), the embedded store's own
 * thread and its client cache: the same on either pass, so they run once. Their PostgreSQL
 * counterparts are in ON_POSTGRES.
 */
const EMBEDDED_PROCESSES = [
  'src/store/pglite-thread.test.ts',
  'test/main.test.ts',
  'test/clean-stop.test.ts',
  'test/drain.test.ts',
  'test/admin-process.test.ts',
  'test/admin-compiled.test.ts',
  'test/admin-embedded.test.ts',
  'test/tracing.test.ts',
  'test/client-changes-embedded.test.ts',
  'test/address-keys-at-start.test.ts',
];
/**
 * Only where a PostgreSQL server is named: the service and the CLI started with DATABASE_URL,
 * OPERATIONS.md's backup and restore with pg_dump and pg_restore, its fleet of three instances
 * behind HAProxy, the client cache's change listener (LISTEN/NOTIFY), deadlocks between
 * transactions (PGlite has one connection), a connection the server ends mid-transaction, the
 * statements' time bounds, and a lost signing key listener.
 */
const ON_POSTGRES = [
  'test/processes-on-postgres.test.ts',
  'test/backup-restore.test.ts',
  'test/fleet.test.ts',
  'test/client-changes.test.ts',
  'test/transaction-conflicts.test.ts',
  'test/connection-lost-in-transaction.test.ts',
  'test/database-time-bounds.test.ts',
  'test/key-listener-lost.test.ts',
  'src/store/notification-listener.test.ts',
];

const SERVER_TEST_OPTIONS = {
  globalSetup: ['test/support/global-setup.ts'],
  // Server test files share nothing at module level (no module mocks, no env changes; each builds its
  // own app on its own database), so a worker imports the server once instead of once per file: half
  // the run's time on 2 cores.
  isolate: false,
  // As `npm start` runs the service (package.json): PGlite's WebAssembly stays at V8's first tier.
  // Each worker opens many embedded databases; without the flag V8's optimising compiler works on
  // PGlite's code in every one: the server project took 8 % more CPU (193–196 against 179–184
  // core-seconds, 121 against 111–114 s on 2 cores).
  execArgv: ['--liftoff-only'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

// One runner for contract, server and web unit/API tests; browser journeys run under Playwright (e2e/).
export default defineConfig({
  test: {
    // At least two files at once: most of a server test's time is spent waiting on the database,
    // argon2's threads or a socket, so two workers keep a 2-core machine busy (vitest's default
    // there is one).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The tests of each file run in a shuffled order, the same every run (a fixed seed): a test that
    // leans on what another left behind fails at once, not on a later day. Another order:
    // `npx vitest run --sequence.seed=<n>`; the written order: `--sequence.shuffle.tests=false`.
    sequence: { shuffle: { files: false, tests: true }, seed: 31337 },
    projects: [
      { test: { name: 'contract', root: 'contract', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [
            ...EMBEDDED_PROCESSES,
            ...(process.env.DATABASE_URL ? [] : ON_POSTGRES),
            ...configDefaults.exclude,
          ],
          ...SERVER_TEST_OPTIONS,
        },
      },
      {
        // Run by `npm test` only: `npm test -- --store-only` (CI's PostgreSQL pass) runs the server
        // project alone, so these start their processes once per CI run.
        test: { name: 'processes', root: 'server', include: EMBEDDED_PROCESSES, ...SERVER_TEST_OPTIONS },
      },
      {
        test: {
          name: 'web',
          root: 'web',
          include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'build/**/*.test.ts'],
          environment: 'jsdom',
          // Test files share their worker's modules and document, as the server's do: no file mocks
          // a module, each unstubs the globals it stubbed, and every test starts on an empty
          // document (the setup file). Loading React, Testing Library and the screens once per
          // worker instead of once per file: 16 instead of 35 s, 23 instead of 60 core-seconds; the
          // tests pass in shuffled order too (`--sequence.shuffle`).
          pool: 'threads',
          isolate: false,
          setupFiles: ['src/test-support/unmount-after-each.ts'],
        },
      },
    ],
  },
});
