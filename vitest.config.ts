import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner for contract, server and web unit/API tests; browser journeys run under Playwright (e2e/).
export default defineConfig({
  test: {
    // At least two files at once: most of a server test's time is spent waiting on the database,
    // argon2's threads or a socket, so two workers keep a 2-core machine busy (vitest's default
    // there is one).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { name: 'contract', root: 'contract', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          // Server test files share nothing at module level (no module mocks, no env changes; each
          // builds its own app on its own database), so a worker imports the server once instead of
          // once per file: half the run's time on 2 cores.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          root: 'web',
          include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'build/**/*.test.ts'],
          environment: 'jsdom',
        },
      },
    ],
  },
});
