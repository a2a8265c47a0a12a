import { defineConfig } from 'vitest/config';

// One runner for contract, server and web unit/API tests; browser journeys run under Playwright (e2e/).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', root: 'contract', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
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
