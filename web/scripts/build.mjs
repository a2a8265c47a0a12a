// `npm run build` of the web workspace: render the background images, bundle the SPA, then write a
// Brotli and a gzip copy beside every text file of web/dist, which the service sends to browsers that
// accept them (server/src/http/spa.ts), as a CDN would.
// Plain JavaScript so it runs on a fresh clone before anything is compiled.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Workspaces hoist tools to the root node_modules; a workspace-local copy wins when there is one. */
function tool(name) {
  const executable = process.platform === 'win32' ? `${name}.cmd` : name;
  for (const dir of [webDir, path.dirname(webDir)]) {
    const candidate = path.join(dir, 'node_modules', '.bin', executable);
    if (existsSync(candidate)) {
      return candidate;
    }
  }
  throw new Error(`${name} is not installed; run \`npm install\` at the repository root`);
}

/** Runs a step with its output streamed through, and rejects on a non-zero exit or a signal. */
function run(label, command, args, env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: webDir,
      env,
      stdio: 'inherit',
      // .cmd shims cannot be spawned without a shell on Windows.
      shell: process.platform === 'win32',
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) {
        resolve();
      } else {
        reject(new Error(`${label} failed (${signal ?? `exit code ${code}`})`));
      }
    });
  });
}

/** Text formats; images are compressed formats already and gain nothing. */
const COMPRESSIBLE = /\.(?:html|js|mjs|css|json|svg|txt|xml|webmanifest)$/;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The smallest encodings zlib makes (Brotli quality 11, gzip level 9): too slow to run per request,
 * free at build time. A copy that is not smaller than the file is not written, so it is never sent.
 */
async function precompress(distDir) {
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  const totals = { raw: 0, br: 0, gz: 0 };
  await Promise.all(
    files.map(async (file) => {
      const data = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.byteLength,
          },
        }),
        gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      totals.raw += data.byteLength;
      totals.br += Math.min(br.byteLength, data.byteLength);
      totals.gz += Math.min(gz.byteLength, data.byteLength);
      if (br.byteLength < data.byteLength) await writeFile(`${file}.br`, br);
      if (gz.byteLength < data.byteLength) await writeFile(`${file}.gz`, gz);
    }),
  );
  const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
  console.log(
    `precompressed ${files.length} files: ${kb(totals.raw)} → ${kb(totals.br)} br, ${kb(totals.gz)} gzip`,
  );
}

try {
  await run('background generation', tool('tsx'), ['scripts/generate-backgrounds.ts']);
  // Always React's production build: the bundler takes process.env.NODE_ENV from the environment, and
  // the callers (npm start in development, the test runners with NODE_ENV=test) set something else,
  // which shipped react-dom's development build (423 KB instead of 190 KB).
  await run('vite build', tool('vite'), ['build'], { ...process.env, NODE_ENV: 'production' });
  await precompress(path.join(webDir, 'dist'));
} catch (error) {
  console.error(`build: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
