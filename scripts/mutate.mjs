#!/usr/bin/env node
// `npm run mutate`: Stryker over the security-critical modules (stryker.config.mjs, TESTING.md).
// Arguments go to `stryker run` as they are: `npm run mutate -- --incremental`,
// `npm run mutate -- --mutate 'server/src/codes/**/*.ts'`.
//
// The server tests serve the built SPA and rebuild it when it is stale. Stryker runs them in a
// sandbox copy, where two test runners would otherwise both find it stale and build it into the same
// folder at once; so it is built here first, and the sandbox's copy is marked fresh (the config's
// buildCommand runs `node scripts/mutate.mjs --mark-spa-fresh` in the sandbox).
import { spawn } from 'node:child_process';
import { utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spaStaleReason } from './spa-freshness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`[mutate] could not run ${command}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

if (process.argv[2] === '--mark-spa-fresh') {
  const now = new Date();
  utimesSync(path.join(root, 'web', 'dist', 'index.html'), now, now);
  process.exit(0);
}

const stale = spaStaleReason();
if (stale) {
  console.log(`[mutate] building the SPA: ${stale}`);
  const built = await run('npm', ['run', 'build', '-w', 'web']);
  if (built !== 0) {
    console.error('[mutate] the SPA build failed (see above)');
    process.exit(built);
  }
}

/**
 * A `--mutate` on the command line replaces the config's list, exclusions included; tests beside
 * their module would then be mutated too, so the exclusions are added back.
 */
const TEST_FILES = ['!**/*.test.ts', '!**/*.test.tsx'];
function withTestsExcluded(args) {
  return args.map((arg, index) => {
    if (args[index - 1] === '--mutate' || args[index - 1] === '-m') return [arg, ...TEST_FILES].join(',');
    if (arg.startsWith('--mutate=')) return [arg, ...TEST_FILES].join(',');
    return arg;
  });
}

const started = Date.now();
const exitCode = await run(path.join(root, 'node_modules', '.bin', 'stryker'), [
  'run',
  ...withTestsExcluded(process.argv.slice(2)),
]);
console.log(`[mutate] finished in ${Math.round((Date.now() - started) / 60_000)} min`);
process.exitCode = exitCode;
