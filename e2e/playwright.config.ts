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
  // The compositor's software output in the browser process: one process fewer per page to schedule
  // on 2 cores (the screens journeys ran 2.7 → 2.3 minutes).
  '--in-process-gpu',
  // Renderer processes are reused instead of started for every navigation and every reset context:
  // one process for all sites and at most two renderers. Same-site and cross-site rules (cookies,
  // Sec-Fetch-Site, CSP, CORS) are enforced the same in one process; no journey uses frames or
  // popups. (No --disable-features here: Chromium keeps only the last one, which would undo
  // Playwright's own list.) The screens journeys took 19 % less CPU with both (181 against 223
  // core-seconds, 97 against 118 s on 2 cores).
  '--disable-site-isolation-trials',
  '--renderer-process-limit=2',
];

/**
 * Journeys that check pages, dialogs, routing and accessibility: the database behind the service
 * does not change what they see, so CI runs them once (on the embedded store), not again on
 * PostgreSQL (`npm test -- --store-only` runs the `store` project only).
 */
const PAGE_ONLY = [
  '**/dialogs.spec.ts',
  '**/screens.spec.ts',
  '**/first-paint.spec.ts',
  '**/error-page.spec.ts',
  '**/routing.spec.ts',
  '**/start-up.spec.ts',
  '**/theme.spec.ts',
  '**/reset-form.spec.ts',
  // Real sign-ins and sign-outs, but what they check (axe, focus, announcements, target sizes) is the
  // pages' own.
  '**/sign-in-accessibility.spec.ts',
  '**/sign-out-accessibility.spec.ts',
  '**/sign-in-guidance.spec.ts',
];

/**
 * Whole flows whose calls to the database are ones the `server` project makes on both stores through
 * the same repository functions (recovery links and codes, password history, invitations, upstream
 * providers, protocol parameters), and whose capability another journey of the `store` project takes
 * through a browser on PostgreSQL as well: sign-in with its lock and an expired password
 * (sign-in.spec.ts), a mailed recovery link with the per-address and per-IP limits in Redis
 * (forgot-password, unlock), an administrator's mail (change-email), sessions and sign-out
 * (cross-site-logout), the relying parties and APIs written outside Node (python-client,
 * python-api). CI runs them once, on the embedded store; the PostgreSQL pass's journeys took 242
 * test-seconds with them, about 150 without (2 workers: 120 against 75 s).
 */
const FLOWS_ON_ONE_STORE = [
  '**/authorization-parameters.spec.ts',
  '**/expired-link.spec.ts',
  '**/expired-password.spec.ts',
  '**/federation.spec.ts',
  '**/invitation.spec.ts',
  // The CSP of the provider's form pages; server/test/form-action.test.ts runs on both stores.
  '**/other-origin-forms.spec.ts',
  '**/sign-out.spec.ts',
];

export default defineConfig({
  testDir: './journeys',
  outputDir: path.join(ARTIFACTS_DIR, 'test-results'),
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  forbidOnly: true,
  workers: 2,
  retries: 0,
  // The slowest journey takes about 20 s on the 2-core CI machine (38 s with the machine loaded by
  // other work), the whole suite about 4 minutes; a hung journey fails within its minute, and no pass may take
  // longer than the whole CI run is allowed to (15 minutes).
  timeout: 60_000,
  globalTimeout: 15 * 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: REPORT_FILE }]],
  projects: [
    { name: 'pages', testMatch: PAGE_ONLY },
    { name: 'flows', testMatch: FLOWS_ON_ONE_STORE },
    { name: 'store', testIgnore: [...PAGE_ONLY, ...FLOWS_ON_ONE_STORE] },
  ],
  use: {
    browserName: 'chromium',
    // One browser context per worker, reset by Playwright between tests (cookies, storage, cache,
    // routes, bindings, init scripts and extra pages go; a test with another locale gets a context of
    // its own), instead of a new one per test: a new context starts its own renderer processes, about
    // a core-second per test on 2 cores, more than most checks cost. The browser pass took 22 % less
    // CPU with it (315 instead of 406 core-seconds, 178 instead of 218 s). What the reset leaves
    // (permissions, geolocation, offline mode, extra HTTP headers) no journey changes.
    reuseContext: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
    // Chromium draws here without a GPU, so the sign-in page's zooming, cross-fading artwork and the
    // done states' emptying bar cost a core per page while they move, slowing every check of both
    // workers (axe-core scans 2-4x). Journeys ask for reduced motion; those about motion turn it off.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    // A failed test keeps its trace: every action with its timing and outcome, the network and the
    // console, and the test's source, plus the screenshot above. A trace is recorded for every test
    // since the outcome is not known before, so what it records is paid by all: the screencast (a
    // JPEG of every frame Chromium draws) was a sixth of the browser pass's CPU (the screens
    // journeys: 104 → 87 core-seconds), and the DOM snapshot before and after each action another
    // 6-8 % (the screens journeys 60 → 55 core-seconds, five flow and page files 91 → 86). Both are
    // left out; the failure screenshot shows the page as it failed. To see the DOM of each step,
    // run the failing journey again with `--trace on`.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false, sources: true },
  },
});
