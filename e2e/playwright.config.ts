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

export default defineConfig({
  testDir: './journeys',
  outputDir: path.join(ARTIFACTS_DIR, 'test-results'),
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  forbidOnly: true,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  globalTimeout: 12 * 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: REPORT_FILE }]],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
});
