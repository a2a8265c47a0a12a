import { defineConfig } from 'vitest/config';
import { reactCompatAliases } from './web/vite.config.ts';

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
        // The browser build renders with Preact's compat layer (web/vite.config.ts); tests use the same.
        resolve: {
          alias: reactCompatAliases,
          // react-router's ESM build, so its own `react` import is resolved (and aliased) by the runner.
          conditions: ['module', 'browser', 'development'],
        },
        test: {
          name: 'web',
          root: 'web',
          include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'build/**/*.test.ts'],
          environment: 'jsdom',
          server: { deps: { inline: [/react-router/] } },
        },
      },
    ],
  },
});
