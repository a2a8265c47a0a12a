/**
 * Chooses argon2id parameters by measurement among OWASP's equal-strength rows
 * (Password Storage Cheat Sheet: m=47104 t=1, m=19456 t=2, m=12288 t=3, m=9216 t=4, m=7168 t=5; p=1).
 * Every row gives the same resistance; the fastest verify on this hardware wins, because
 * login throughput is bounded by verifies per second. Run: npx tsx bench/argon2-params.ts
 */
import { availableParallelism } from 'node:os';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

/** Algorithm.Argon2id: the package's enum is an ambient const enum, which isolated modules cannot read. */
const ARGON2ID = 2 as Algorithm;

const ROWS = [
  { memoryCost: 47_104, timeCost: 1 },
  { memoryCost: 19_456, timeCost: 2 },
  { memoryCost: 12_288, timeCost: 3 },
  { memoryCost: 9_216, timeCost: 4 },
  { memoryCost: 7_168, timeCost: 5 },
] as const;

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCY = availableParallelism();

async function verifiesPerSecond(row: (typeof ROWS)[number]): Promise<number> {
  const options = { algorithm: ARGON2ID, parallelism: 1, ...row };
  const stored = await hash('correct horse battery staple', options);
  const until = performance.now() + SECONDS * 1000;
  let count = 0;
  const worker = async () => {
    while (performance.now() < until) {
      await verify(stored, 'correct horse battery staple');
      count++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return count / ((performance.now() - started) / 1000);
}

const results = [];
for (const row of ROWS) {
  const rate = await verifiesPerSecond(row);
  results.push({ ...row, rate });
  console.log(
    `m=${row.memoryCost} KiB t=${row.timeCost} p=1: ${rate.toFixed(1)} verifies/s (${CONCURRENCY} in parallel)`,
  );
}
const best = results.reduce((a, b) => (b.rate > a.rate ? b : a));
console.log(`fastest equal-strength row: m=${best.memoryCost} t=${best.timeCost}`);
