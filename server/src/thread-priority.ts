import { readdirSync, readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { setPriority } from 'node:os';

/** The name libuv gives the threads of Node's pool (Node 22 and 24). */
const POOL_THREAD_NAME = 'libuv-worker';

/**
 * The niceness of the pool's threads: at +10 a thread gets about a tenth of the share of one at the
 * default 0 when both want the same core, and all of a core nobody else wants.
 */
const POOL_THREAD_NICE = 10;

/** Where the threads are listed and how one is lowered (Linux's /proc and setpriority by thread id). */
export interface ThreadTable {
  /** Thread ids of this process. */
  ids(): string[];
  /** The thread's name, or undefined once it is gone. */
  name(id: string): string | undefined;
  setNice(id: string, nice: number): void;
}

const PROC_TASKS = '/proc/self/task';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const procThreads: ThreadTable = {
  ids: () => readdirSync(PROC_TASKS),
  name(id) {
    try {
      return readFileSync(`${PROC_TASKS}/${id}/comm`, 'utf8').trim();
    } catch {
      return undefined;
    }
  },
  // On Linux the "process" of setpriority(2) is a thread: one id lowers that thread alone.
  setNice: (id, nice) => setPriority(Number(id), nice),
};

export interface PoolPriority {
  /** Threads lowered to POOL_THREAD_NICE. */
  lowered: number;
  /** Why some or all were not (their priority stays as it was), if any. */
  problem?: string;
}

/**
 * Runs Node's thread pool, where every argon2 hash is computed, below the threads that answer
 * requests: the event loop and the embedded database's thread. A hash takes about 10 core ms and a
 * burst of sign-ins keeps all UV_THREADPOOL_SIZE threads busy; on a machine with fewer cores than
 * that, at equal priority the event loop waited for a core about as long as it ran (BENCHMARKS.md).
 * Lowered, hashing takes whatever the serving threads leave, so on an idle core a hash is as fast as
 * before and no attempt is refused; under load, pages, health checks and token requests keep being
 * answered. Linux only (elsewhere nothing changes). Never fails the start: a system that forbids it
 * leaves the priorities as they were, and the answer says why.
 */
export async function lowerPoolPriority(
  threads: ThreadTable = procThreads,
  platform: NodeJS.Platform = process.platform,
): Promise<PoolPriority> {
  if (platform !== 'linux') return { lowered: 0 };
  // libuv starts every thread of its pool at its first task: a file system call is one.
  await access(PROC_TASKS).catch(() => undefined);
  let ids: string[];
  try {
    ids = threads.ids();
  } catch (error) {
    return { lowered: 0, problem: messageOf(error) };
  }
  let lowered = 0;
  let problem: string | undefined;
  for (const id of ids) {
    if (threads.name(id) !== POOL_THREAD_NAME) continue;
    try {
      threads.setNice(id, POOL_THREAD_NICE);
      lowered++;
    } catch (error) {
      problem ??= messageOf(error);
    }
  }
  if (lowered === 0) problem ??= `no thread named ${POOL_THREAD_NAME}`;
  return problem === undefined ? { lowered } : { lowered, problem };
}
