import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { ARTIFACTS_DIR, REPORT_FILE } from './support/paths.ts';

/**
 * Debian's Chromium: Playwright cannot download its own browsers here (DESIGN §3). The flags keep
 * the browser from phoning home or needing a sandbox/GPU in containers.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Journeys that check pages, dialogs, routing and accessibility: the database behind the service
 * does not change what they see, so CI runs them once (on the embedded store), not again on
 * PostgreSQL (`npm test -- --store-only` runs the `store` project only).
 */
const PAGE_ONLY = [
  '**/accessibility.spec.ts',
  '**/dialogs.spec.ts',
  '**/routes.spec.ts',
  '**/routing.spec.ts',
  '**/start-up.spec.ts',
  '**/theme.spec.ts',
];

export default defineConfig({
  testDir: './journeys',
  outputDir: path.join(ARTIFACTS_DIR, 'test-results'),
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  forbidOnly: true,
  workers: 2,
  retries: 0,
  // Chromium is slow on the 2-core virtual machines CI runs on, and slower on some days than others:
  // measured 2026-11-24, a new page took 0.7-1.0 s and a goto of a one-line page 0.1-0.2 s, and one
  // pass of the suite 12+ minutes where it had taken 6. The limits leave room for such a day; a hung
  // journey still fails within a test's timeout.
  timeout: 90_000,
  globalTimeout: 25 * 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: REPORT_FILE }]],
  projects: [
    { name: 'pages', testMatch: PAGE_ONLY },
    { name: 'store', testIgnore: PAGE_ONLY },
  ],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
});
