/**
 * `npm run login-cpu -w bench`: core milliseconds per `/api/login` by outcome (success, wrong
 * password, unknown user), read from /proc: the service's main thread, its other threads (argon2's
 * pool; PGlite's thread on the embedded store) and PostgreSQL, with the attempts per second. One
 * attempt at a time unless LOGIN_CPU_IN_FLIGHT says otherwise. Where the rates of `npm run bench`
 * differ between outcomes, this says which part of the work does (BENCHMARKS.md). DATABASE_URL as
 * for `npm run bench` (without it: PGlite).
 */
import { DEMO_EMAIL, type PreparedLogin, prepareLogins } from './browser.ts';
import { cpuPerOperation, cpuSnapshot } from './cpu.ts';
import { type Store, startService } from './service.ts';

const ATTEMPTS = Number(process.env.LOGIN_CPU_ATTEMPTS ?? 100);
const ROUNDS = Number(process.env.LOGIN_CPU_ROUNDS ?? 4);
const IN_FLIGHT = Number(process.env.LOGIN_CPU_IN_FLIGHT ?? 1);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const store: Store = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  const service = await startService('keycard', store, {
    LOCKOUT_THRESHOLD: '1000',
    LOCKOUT_MINUTES: '0',
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  try {
    const each = ATTEMPTS * ROUNDS + 20;
    console.log(`${store}: preparing ${3 * each} interactions…`);
    const outcomes = [
      {
        name: 'success',
        expected: /"isAuthenticated":true/,
        attempts: await prepareLogins(service.base, each, () => [DEMO_EMAIL, service.password]),
      },
      {
        name: 'wrong password',
        expected: /"verificationType":0/,
        attempts: await prepareLogins(service.base, each, () => [DEMO_EMAIL, 'Wrong-Password-123']),
      },
      {
        name: 'unknown user',
        expected: /"verificationType":0/,
        attempts: await prepareLogins(service.base, each, (i) => [
          `nobody-${i}@bench.example`,
          'Wrong-Password-123',
        ]),
      },
    ];
    const figures = outcomes.map(() => ({
      main: [] as number[],
      other: [] as number[],
      worker: [] as number[],
      postgres: [] as number[],
      rate: [] as number[],
    }));
    const run = async (attempts: PreparedLogin[], expected: RegExp) => {
      const queue = [...attempts];
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            const answer = await next.browser.post('/api/login', next.body);
            if (!expected.test(answer.text)) throw new Error(`unexpected answer: ${answer.text}`);
          }
        }),
      );
    };
    // Warm-up, not counted.
    for (const { attempts, expected } of outcomes) await run(attempts.splice(0, 20), expected);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, { name, attempts, expected }] of outcomes.entries()) {
        const before = cpuSnapshot(service.pid);
        const started = performance.now();
        await run(attempts.splice(0, ATTEMPTS), expected);
        const rate = ATTEMPTS / ((performance.now() - started) / 1000);
        const per = cpuPerOperation(before, cpuSnapshot(service.pid), ATTEMPTS);
        figures[index]?.rate.push(rate);
        figures[index]?.main.push(per.serviceMain);
        figures[index]?.other.push(per.serviceOther);
        figures[index]?.worker.push(per.serviceWorker);
        figures[index]?.postgres.push(per.postgres);
        console.log(
          `round ${round + 1}, ${name}: ${rate.toFixed(1)}/s; main ${per.serviceMain.toFixed(2)}, other ${per.serviceOther.toFixed(2)} (of which the database thread ${per.serviceWorker.toFixed(2)}), PostgreSQL ${per.postgres.toFixed(2)} core ms`,
        );
      }
    }
    console.log(`\nmedians of ${ROUNDS} rounds of ${ATTEMPTS} logins, ${IN_FLIGHT} in flight (${store}):`);
    console.log(
      "| outcome | per second | main thread core ms | other threads | of which PGlite's thread | PostgreSQL |\n|---|---|---|---|---|---|",
    );
    for (const [index, { name }] of outcomes.entries()) {
      const f = figures[index];
      if (!f) continue;
      console.log(
        `| ${name} | ${median(f.rate).toFixed(1)} | ${median(f.main).toFixed(2)} | ${median(f.other).toFixed(2)} | ${store === 'PGlite' ? median(f.worker).toFixed(2) : '–'} | ${store === 'PostgreSQL' ? median(f.postgres).toFixed(2) : '–'} |`,
      );
    }
  } finally {
    await service.stop();
  }
}

await main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
