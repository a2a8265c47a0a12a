/**
 * `npm run bench:start`: time from `npm start` to the service's "Keycard listening on" line, and from
 * SIGTERM to npm's exit. First start: a new data directory (migrations, signing keys, demo account).
 * Warm start: the same directory again, three times. With `--rebuild-server`, server/dist is deleted
 * first, so the first start also compiles the server, as after a fresh checkout or a pull.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, startService } from './started-service.ts';

const WARM_RUNS = 3;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function once(label: string, dataDir: string): Promise<number> {
  const service = await startService({ dataDir });
  const built = service.output().match(/^Built .*$/gm) ?? [];
  const stop = await service.stop();
  console.log(
    `${label}: listening after ${seconds(service.listeningAfterMs)} (CPU ${seconds(service.cpuMsAtListening)}); ` +
      `stopped in ${seconds(stop.ms)} with exit code ${stop.code}` +
      (built.length > 0 ? ` (${built.join('; ')})` : ''),
  );
  if (stop.code !== 0) throw new Error(`npm start exited with ${stop.code}:\n${service.output()}`);
  return service.listeningAfterMs;
}

async function main(): Promise<void> {
  if (process.argv.includes('--rebuild-server'))
    rmSync(path.join(ROOT, 'server', 'dist'), { recursive: true, force: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keycard-start-'));
  try {
    await once('first start', dataDir);
    const warm: number[] = [];
    for (let run = 1; run <= WARM_RUNS; run += 1) warm.push(await once(`warm start ${run}`, dataDir));
    warm.sort((a, b) => a - b);
    console.log(`warm start, median of ${WARM_RUNS}: ${seconds(warm[Math.floor(WARM_RUNS / 2)] ?? 0)}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
