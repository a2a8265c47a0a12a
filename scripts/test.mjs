#!/usr/bin/env node
// `npm test`: everything CI runs. Unit and API tests (vitest, every project), then the browser
// journeys (Playwright against the real built service). The last line is always
// `N passed, N failed` (plus `, N skipped` when any were skipped), summed over both runners;
// .ci/run parses it. Exits non-zero when anything failed.
//
// `npm test -- --store-only` runs just the tests whose outcome depends on the database: the server
// tests (vitest's `server` project, not `processes`, whose service processes always run on the
// embedded store) and the journeys of the `store` project, each flow in one language. CI's second
// pass (PostgreSQL) uses it, so the contract, the SPA's component tests, the page-only journeys, the
// flows the server tests cover on both stores (the `flows` project, e2e/playwright.config.ts) and a
// flow's repeats in further languages run once per CI run, not twice.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spaStaleReason } from './spa-freshness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const vitestReport = path.join(root, '.tmp', 'vitest-results.json');
// Same file as REPORT_FILE in e2e/support/paths.ts (the config's JSON reporter writes it).
const playwrightReport = path.join(root, 'e2e', 'artifacts', 'results.json');

function log(message) {
  console.log(`\n[test] ${message}`);
}

function run(command, args, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`[test] could not run ${command}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Counts from vitest's JSON report; a file that failed to load counts as one failure. */
function vitestCounts(exitCode) {
  const report = readJson(vitestReport);
  if (!report) return { passed: 0, failed: 1, skipped: 0 };
  const brokenFiles = (report.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
  let failed = (report.numFailedTests ?? 0) + brokenFiles;
  if (exitCode !== 0 && failed === 0) failed = 1;
  return {
    passed: report.numPassedTests ?? 0,
    failed,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

/** Counts from Playwright's JSON report; errors outside tests (global setup …) count as failures. */
function playwrightCounts(exitCode) {
  const report = readJson(playwrightReport);
  if (!report?.stats) return { passed: 0, failed: 1, skipped: 0 };
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats;
  let failed = unexpected + flaky + (report.errors ?? []).length;
  if (exitCode !== 0 && failed === 0) failed = 1;
  return { passed: expected, failed, skipped };
}

function describe({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
}

function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

const storeOnly = process.argv.includes('--store-only');
const unknown = process.argv.slice(2).filter((arg) => arg !== '--store-only');
if (unknown.length > 0) {
  console.error(`npm test: unknown argument ${unknown.join(' ')} (only --store-only is known)`);
  process.exit(2);
}

async function main() {
  const started = Date.now();
  mkdirSync(path.dirname(vitestReport), { recursive: true });
  rmSync(vitestReport, { force: true });
  rmSync(playwrightReport, { force: true });

  let buildFailed = false;
  if (spaStaleReason()) {
    // Built here, before Playwright starts its clock; the service then finds web/dist fresh.
    log('building the SPA (web/dist is stale)');
    const at = Date.now();
    buildFailed = (await run('npm', ['run', 'build', '-w', 'web'])) !== 0;
    log(`build ${buildFailed ? 'FAILED' : 'done'} in ${seconds(at)}`);
  }

  log(`unit and API tests (vitest run${storeOnly ? ', server project only' : ''})`);
  let at = Date.now();
  const vitestExit = await run(bin('vitest'), [
    'run',
    ...(storeOnly ? ['--project', 'server'] : []),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestReport}`,
  ]);
  const unit = vitestCounts(vitestExit);
  log(`vitest: ${describe(unit)} in ${seconds(at)}`);

  log(`browser journeys (playwright test${storeOnly ? ', store project only' : ''})`);
  at = Date.now();
  const playwrightExit = await run(bin('playwright'), [
    'test',
    '-c',
    path.join('e2e', 'playwright.config.ts'),
    // Nor a flow's repeats in further languages (LANGUAGE_REPEAT_TAG in e2e/support/fixtures.ts).
    ...(storeOnly ? ['--project', 'store', '--grep-invert', '@language-repeat'] : []),
  ]);
  const browser = playwrightCounts(playwrightExit);
  log(`playwright: ${describe(browser)} in ${seconds(at)}`);

  const total = {
    passed: unit.passed + browser.passed,
    failed: unit.failed + browser.failed + (buildFailed ? 1 : 0),
    skipped: unit.skipped + browser.skipped,
  };
  log(`all tests finished in ${seconds(started)}`);
  console.log(describe(total));
  process.exitCode = total.failed > 0 ? 1 : 0;
}

await main();
