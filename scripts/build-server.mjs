// Compiles the service to JavaScript in server/dist, so production runs it with plain node and no
// TypeScript loader. Run by `npm run build`, and by `npm start` / `npm run admin` when server/dist is
// stale (scripts/spa-freshness.mjs; `--if-stale` checks again once no other build runs).
//
// server/dist mirrors server/src (main.ts → main.js), so paths found from import.meta.url (the
// migrations, web/dist, the common-password list) resolve the same in both. The contract, which the
// server imports as the package `@keycard/contract`, is compiled into server/dist/node_modules: Node
// finds that copy before the workspace's TypeScript sources, while vitest, Vite and tsx keep using
// the sources. Types are not checked here (`npm run typecheck` does that): start-up should not wait
// for a whole type check, and only syntax errors can stop the emit.
import { cp, mkdir, open, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serverStaleReason } from './spa-freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (...segments) => path.join(root, ...segments);

export const SERVER_DIST = at('server', 'dist');
/** Held while a build runs: `npm start` and `npm run admin` (or two test files) may want one at once. */
const BUILD_LOCK = at('node_modules', '.cache', 'keycard', 'server-build.lock');
const LOCK_WAIT_MS = 300_000;
/** Written last, with the time the build started: anything changed after that makes the build stale. */
export const SERVER_BUILD_MARKER = path.join(SERVER_DIST, 'build.json');

async function loadTypeScript() {
  try {
    return (await import('typescript')).default;
  } catch {
    throw new Error(
      'TypeScript is not installed, so server/dist cannot be built. Install the development ' +
        'dependencies (`npm install`), or build where they are installed and deploy server/dist.',
    );
  }
}

function describe(ts, diagnostics) {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (file) => file,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  });
}

/** Emits one tsconfig's files to `outDir`; throws with the compiler's messages on any error. */
function compile(ts, configFile, outDir) {
  const host = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(describe(ts, [diagnostic]));
    },
  };
  const config = ts.getParsedCommandLineOfConfigFile(configFile, { outDir, noCheck: true }, host);
  if (!config) throw new Error(`cannot read ${configFile}`);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const diagnostics = [
    ...config.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
  ];
  if (diagnostics.length === 0) diagnostics.push(...program.emit().diagnostics);
  const errors = diagnostics.filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new Error(describe(ts, errors));
  return config.fileNames.length;
}

/** Files the compiled code reads at run time (the common-password list …), beside their modules. */
async function copyRuntimeFiles(sourceDir, outDir) {
  const entries = await readdir(sourceDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || /\.[cm]?tsx?$/.test(entry.name)) continue;
    const source = path.join(entry.parentPath, entry.name);
    const target = path.join(outDir, path.relative(sourceDir, source));
    await mkdir(path.dirname(target), { recursive: true });
    await cp(source, target);
  }
}

/** The compiled contract as a package of its own, found by Node from anywhere under server/dist. */
async function writeContractPackage(outDir) {
  const source = JSON.parse(await readFile(at('contract', 'package.json'), 'utf8'));
  const manifest = {
    name: source.name,
    private: true,
    version: source.version,
    type: 'module',
    exports: { '.': './index.js' },
    sideEffects: false,
  };
  await writeFile(path.join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * Replaces server/dist with the finished build in two renames, so a service or admin command
 * starting meanwhile sees the old build or the new one, never half of one.
 */
async function install(staging) {
  const old = `${SERVER_DIST}.${process.pid}.old`;
  await rename(SERVER_DIST, old).catch((error) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(staging, SERVER_DIST);
  await rm(old, { recursive: true, force: true });
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Runs `work` while holding BUILD_LOCK; a lock whose process is gone is taken over. */
async function withBuildLock(work) {
  await mkdir(path.dirname(BUILD_LOCK), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(BUILD_LOCK, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const holder = Number.parseInt(await readFile(BUILD_LOCK, 'utf8').catch(() => ''), 10);
      if (!Number.isInteger(holder) || !isRunning(holder)) {
        await rm(BUILD_LOCK, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another server build (pid ${holder}) did not finish`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    await rm(BUILD_LOCK, { force: true });
  }
}

/**
 * Builds server/dist from scratch and answers how many files were compiled. With `onlyIfStale`, it
 * first waits for a build another process is running and builds only if server/dist is still stale
 * after it (answering 0 otherwise).
 */
export function buildServer({ onlyIfStale = false } = {}) {
  return withBuildLock(async () => (onlyIfStale && !serverStaleReason() ? 0 : compileAll()));
}

async function compileAll() {
  const startedAt = new Date();
  const ts = await loadTypeScript();
  const staging = `${SERVER_DIST}.${process.pid}.tmp`;
  await rm(staging, { recursive: true, force: true });
  try {
    const contractOut = path.join(staging, 'node_modules', '@keycard', 'contract');
    let files = compile(ts, at('contract', 'tsconfig.build.json'), contractOut);
    await writeContractPackage(contractOut);
    files += compile(ts, at('server', 'tsconfig.build.json'), staging);
    await copyRuntimeFiles(at('server', 'src'), staging);
    const marker = path.join(staging, path.basename(SERVER_BUILD_MARKER));
    await writeFile(marker, `${JSON.stringify({ builtAt: startedAt.toISOString(), files }, null, 2)}\n`);
    await utimes(marker, startedAt, startedAt);
    await install(staging);
    return files;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  try {
    const files = await buildServer({ onlyIfStale: process.argv.includes('--if-stale') });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      files === 0
        ? 'server: server/dist was brought up to date by another build meanwhile'
        : `server: ${files} files compiled to server/dist in ${seconds} s`,
    );
  } catch (error) {
    console.error(`server build failed:\n${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
