/**
 * `npx tsx bench/flow-cpu.ts`: core milliseconds of the service's main thread (and of PostgreSQL) per
 * full code flow, flows one at a time, so the figure depends little on what else the machine runs
 * (BENCHMARKS.md). FLOW_CPU_BASE=<another checkout> starts that checkout's service beside this one and
 * measures both in alternating rounds, for a before/after on a shared machine (a checkout whose
 * bench/service.ts starts a subject on a store, as this one's does). DATABASE_URL as for `npm run bench`.
 */
import path from 'node:path';

const FLOWS = Number(process.env.FLOW_CPU_FLOWS ?? 60);
const ROUNDS = Number(process.env.FLOW_CPU_ROUNDS ?? 6);
const WARM_UP = 30;

type Bench = {
  service: typeof import('./service.ts');
  browser: typeof import('./browser.ts');
  cpu: typeof import('./cpu.ts');
};

/** A checkout's own benchmark modules, so each service is driven and measured as its checkout does. */
async function benchOf(root: string): Promise<Bench> {
  return {
    service: await import(path.join(root, 'bench/service.ts')),
    browser: await import(path.join(root, 'bench/browser.ts')),
    cpu: await import(path.join(root, 'bench/cpu.ts')),
  };
}

interface Subject {
  name: string;
  bench: Bench;
  service: Awaited<ReturnType<Bench['service']['startService']>>;
  main: number[];
  postgres: number[];
}

async function flow({ bench, service }: Subject): Promise<void> {
  const browser = new bench.browser.Browser(service.base);
  await browser.loadSpa();
  const started = await bench.browser.authorize(browser);
  const Username = 'demo@keycard.example';
  await browser.post('/api/CheckUsername', { Username, ReturnUrl: started.returnUrl });
  const login = await browser.post('/api/login', {
    Username,
    Password: service.password,
    ReturnUrl: started.returnUrl,
  });
  if (!login.text.includes('"isAuthenticated":true')) throw new Error('full flow: login failed');
  await bench.browser.finishFlow(browser, started);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const roots = [
    { name: 'this checkout', root: path.resolve(import.meta.dirname, '..') },
    ...(process.env.FLOW_CPU_BASE ? [{ name: 'base', root: path.resolve(process.env.FLOW_CPU_BASE) }] : []),
  ];
  const subjects: Subject[] = [];
  try {
    for (const { name, root } of roots) {
      const bench = await benchOf(root);
      const service = await bench.service.startService('keycard', 'PostgreSQL', {
        RATE_LIMIT_PER_MINUTE: '1000000',
      });
      subjects.push({ name, bench, service, main: [], postgres: [] });
    }
    for (const subject of subjects) for (let i = 0; i < WARM_UP; i++) await flow(subject);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating order, so neither checkout always runs first in a round.
      for (const subject of round % 2 === 0 ? subjects : [...subjects].reverse()) {
        const { cpu } = subject.bench;
        const before = cpu.cpuSnapshot(subject.service.pid);
        for (let i = 0; i < FLOWS; i++) await flow(subject);
        const per = cpu.cpuPerOperation(before, cpu.cpuSnapshot(subject.service.pid), FLOWS);
        subject.main.push(per.serviceMain);
        subject.postgres.push(per.postgres);
        console.log(
          `${subject.name}, round ${round + 1}: main thread ${per.serviceMain.toFixed(2)}, PostgreSQL ${per.postgres.toFixed(2)} core ms per flow`,
        );
      }
    }
  } finally {
    for (const subject of subjects) await subject.service.stop();
  }
  console.log(`\nmedian core ms per full flow, ${ROUNDS} rounds of ${FLOWS} flows one at a time:`);
  for (const subject of subjects) {
    console.log(
      `  ${subject.name}: main thread ${median(subject.main).toFixed(2)}, PostgreSQL ${median(subject.postgres).toFixed(2)}`,
    );
  }
}

await main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
