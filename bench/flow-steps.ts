/**
 * `npm run flow-steps -w bench`: where the service's main thread spends more than the floor's, step by
 * step. Both on PostgreSQL (DATABASE_URL, as for `npm run bench`), the service as `npm run bench` runs
 * it; flows one at a time in alternating rounds, each step's main-thread time read from the scheduler
 * (`mainThreadRunNs`) before and after it. Then single requests of one kind, one at a time: the CSRF
 * token call on both and the service's liveness probe, the least a request costs it.
 *
 * One at a time, work a process does after its answer (a log line written, a metric) counts for the
 * next step; the totals are exact. FLOW_STEPS_ROUNDS, FLOW_STEPS_FLOWS (per round and subject),
 * FLOW_STEPS_REQUESTS (per kind and subject).
 */
import { Browser, FLOW_STEPS, type FlowStep, fullFlow } from './browser.ts';
import { mainThreadRunNs } from './cpu.ts';
import { type BenchService, type Subject, startService } from './service.ts';

const ROUNDS = Number(process.env.FLOW_STEPS_ROUNDS ?? 8);
const FLOWS = Number(process.env.FLOW_STEPS_FLOWS ?? 60);
const REQUESTS = Number(process.env.FLOW_STEPS_REQUESTS ?? 3000);
const WARM_UP = 100;

/** Main-thread ns per step, summed over the recorded flows. */
type StepTimes = Record<FlowStep, number>;

/** One full flow, each step's main-thread time added to `times` (none while warming up). */
async function timedFlow(service: BenchService, times: StepTimes | null): Promise<void> {
  let last = mainThreadRunNs(service.pid);
  await fullFlow(service, (step) => {
    const now = mainThreadRunNs(service.pid);
    if (times) times[step] += now - last;
    last = now;
  });
}

/** Main-thread µs per request of `path`, `count` GETs one at a time from one browser. */
async function perRequest(service: BenchService, path: string, count: number): Promise<number> {
  const browser = new Browser(service.base);
  for (let i = 0; i < 100; i++) await browser.get(path);
  const before = mainThreadRunNs(service.pid);
  for (let i = 0; i < count; i++) await browser.get(path);
  return (mainThreadRunNs(service.pid) - before) / count / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const micro = (ns: number) => (ns / 1000).toFixed(0);

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('flow-steps measures PostgreSQL: set DATABASE_URL');
  const subjects: BenchService[] = [];
  try {
    // One client sends every request: lockout and the per-IP limit would otherwise measure themselves.
    subjects.push(
      await startService('keycard', 'PostgreSQL', {
        LOCKOUT_THRESHOLD: '1000',
        LOCKOUT_MINUTES: '0',
        RATE_LIMIT_PER_MINUTE: '1000000',
      }),
    );
    subjects.push(await startService('floor', 'PostgreSQL'));
    const times = new Map<Subject, StepTimes>(
      subjects.map((s) => [s.subject, Object.fromEntries(FLOW_STEPS.map((step) => [step, 0])) as StepTimes]),
    );
    for (const service of subjects) for (let i = 0; i < WARM_UP; i++) await timedFlow(service, null);
    for (let round = 0; round < ROUNDS; round++) {
      console.log(`round ${round + 1} of ${ROUNDS}…`);
      for (const service of round % 2 === 0 ? subjects : [...subjects].reverse()) {
        for (let i = 0; i < FLOWS; i++) await timedFlow(service, times.get(service.subject) ?? null);
      }
    }
    const flows = ROUNDS * FLOWS;
    const [keycard, floor] = subjects.map((s) => times.get(s.subject) as StepTimes) as [StepTimes, StepTimes];
    console.log(`\nMain-thread µs per step, ${flows} full flows one at a time (PostgreSQL):\n`);
    console.log('| step | service | floor | service − floor |');
    console.log('|---|---|---|---|');
    for (const step of FLOW_STEPS) {
      const [k, f] = [keycard[step] / flows, floor[step] / flows];
      console.log(`| ${step} | ${micro(k)} | ${micro(f)} | ${micro(k - f)} |`);
    }
    const total = (t: StepTimes) => FLOW_STEPS.reduce((sum, step) => sum + t[step], 0) / flows;
    console.log(
      `| **full flow** | ${micro(total(keycard))} | ${micro(total(floor))} | ${micro(total(keycard) - total(floor))} (÷ floor ${(total(keycard) / total(floor)).toFixed(2)}) |`,
    );

    const [service, minimal] = subjects as [BenchService, BenchService];
    const token = { service: [] as number[], floor: [] as number[], live: [] as number[] };
    for (let round = 0; round < 4; round++) {
      token.service.push(await perRequest(service, '/api/getcsrftoken', REQUESTS / 4));
      token.floor.push(await perRequest(minimal, '/api/getcsrftoken', REQUESTS / 4));
      token.live.push(await perRequest(service, '/health/live', REQUESTS / 4));
    }
    console.log(`\nMain-thread µs per request, ${REQUESTS} of each one at a time (median of 4 rounds):`);
    console.log(
      `  GET /api/getcsrftoken: service ${median(token.service).toFixed(0)}, floor ${median(token.floor).toFixed(0)}`,
    );
    console.log(`  GET /health/live: service ${median(token.live).toFixed(0)}`);
  } finally {
    for (const service of subjects) await service.stop();
  }
}

await main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
