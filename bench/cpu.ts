/**
 * Where the cores went during a phase, read from /proc (Linux): the service's main thread, its other
 * threads (libuv's pool, where argon2 runs, and V8's helpers), PostgreSQL's processes, this process
 * (the load generator), and the machine's idle time. A CPU profile cannot tell this: its samples run on
 * wall-clock time, so a main thread waiting for a core is charged to whatever it was doing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

export interface CpuSnapshot {
  serviceMain: number;
  serviceOther: number;
  /** Of serviceOther: the service's worker threads (PGlite's database thread on the embedded store). */
  serviceWorker: number;
  postgres: number;
  loadGenerator: number;
  idle: number;
}

/** The fields of a /proc stat file after the command name; empty when it is gone. */
function statFields(statPath: string): string[] {
  try {
    const text = readFileSync(statPath, 'utf8');
    // The command name is in parentheses and may hold spaces: count fields after the last ')'.
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return []; // the thread or process ended between listing and reading
  }
}

/** utime + stime of a /proc stat file, in ms. */
function statCpuMs(statPath: string): number {
  const fields = statFields(statPath);
  return fields.length === 0 ? 0 : (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/**
 * CPU of every PostgreSQL process since the server started, in ms: the live processes' own time plus
 * what the postmaster has collected of its ended children (cutime + cstime, added when it reaps one).
 * A sum of the live processes alone loses a connection that ends within a phase, and can fall.
 */
function postgresCpuMs(): number {
  let total = 0;
  const postgres = readdirSync('/proc').filter((pid) => /^\d+$/.test(pid) && comm(pid) === 'postgres');
  const pids = new Set(postgres);
  for (const pid of postgres) {
    const fields = statFields(`/proc/${pid}/stat`);
    if (fields.length === 0) continue;
    total += (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    // The postmaster: the one PostgreSQL process whose parent is not one.
    if (!pids.has(fields[1] ?? '')) total += (Number(fields[13]) + Number(fields[14])) * TICK_MS;
  }
  return total;
}

function comm(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

function idleMs(): number {
  const [cpu = ''] = readFileSync('/proc/stat', 'utf8').split('\n');
  const fields = cpu.trim().split(/\s+/).slice(1).map(Number);
  return ((fields[3] ?? 0) + (fields[4] ?? 0)) * TICK_MS; // idle + iowait, all cores together
}

/** Only Linux has /proc; elsewhere every figure is NaN and printed as n/a. */
const HAS_PROC = existsSync('/proc/stat');

export function cpuSnapshot(servicePid: number): CpuSnapshot {
  if (!HAS_PROC) {
    return {
      serviceMain: NaN,
      serviceOther: NaN,
      serviceWorker: NaN,
      postgres: NaN,
      loadGenerator: NaN,
      idle: NaN,
    };
  }
  let serviceMain = 0;
  let serviceOther = 0;
  let serviceWorker = 0;
  for (const tid of readdirSync(`/proc/${servicePid}/task`)) {
    const ms = statCpuMs(`/proc/${servicePid}/task/${tid}/stat`);
    if (Number(tid) === servicePid) serviceMain += ms;
    else serviceOther += ms;
    // Node names each worker_threads thread so; libuv's pool (argon2) is "libuv-worker".
    if (comm(`${servicePid}/task/${tid}`) === 'WorkerThread') serviceWorker += ms;
  }
  const postgres = postgresCpuMs();
  const own = process.cpuUsage();
  return {
    serviceMain,
    serviceOther,
    serviceWorker,
    postgres,
    loadGenerator: (own.user + own.system) / 1000,
    idle: idleMs(),
  };
}

/** Core-milliseconds per operation between two snapshots. */
export function cpuPerOperation(before: CpuSnapshot, after: CpuSnapshot, operations: number): CpuSnapshot {
  const per = (key: keyof CpuSnapshot) => (after[key] - before[key]) / operations;
  return {
    serviceMain: per('serviceMain'),
    serviceOther: per('serviceOther'),
    serviceWorker: per('serviceWorker'),
    postgres: per('postgres'),
    loadGenerator: per('loadGenerator'),
    idle: per('idle'),
  };
}

/**
 * Nanoseconds a process's main thread has run on a core since it started (the first field of its
 * schedstat; the scheduler counts it exactly, where stat counts ticks of 10 ms); NaN without /proc.
 */
export function mainThreadRunNs(pid: number): number {
  return HAS_PROC ? (mainThreadSchedstat(pid)[0] ?? NaN) : NaN;
}

/** A process's main thread's schedstat: ns on a core, ns waiting for one, times it ran. */
function mainThreadSchedstat(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
}

/**
 * What stalls the service's main thread without being its own work, since boot, in ms: the cores'
 * steal time (the host running something else while this machine's cores wait: /proc/stat, all cores
 * together, 10 ms ticks) and the main thread's time runnable but waiting for a core on this machine
 * (the second field of its schedstat, exact). A round whose longest event-loop delay comes with a jump
 * in steal was stalled by the host; with a jump in waiting, by other work on this machine (the
 * service's own other threads included).
 */
export interface Stalls {
  stealMs: number;
  mainWaitMs: number;
}

export function stalls(servicePid: number): Stalls {
  if (!HAS_PROC) return { stealMs: NaN, mainWaitMs: NaN };
  const [cpu = ''] = readFileSync('/proc/stat', 'utf8').split('\n');
  const steal = Number(cpu.trim().split(/\s+/)[8] ?? NaN);
  const [, waitNs = NaN] = mainThreadSchedstat(servicePid);
  return { stealMs: steal * TICK_MS, mainWaitMs: waitNs / 1e6 };
}
