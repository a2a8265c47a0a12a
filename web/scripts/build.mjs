// `npm run build` of the web workspace: render the background images, then bundle the SPA.
// Plain JavaScript so it runs on a fresh clone before anything is compiled.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
function run(label, command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: webDir,
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

try {
  await run('background generation', tool('tsx'), ['scripts/generate-backgrounds.ts']);
  await run('vite build', tool('vite'), ['build']);
} catch (error) {
  console.error(`build: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
