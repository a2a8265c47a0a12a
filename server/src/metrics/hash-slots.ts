import type { HashMeter } from './meters.ts';

/** Seconds on a monotonic clock. */
export type Seconds = () => number;

const monotonicSeconds: Seconds = () => performance.now() / 1000;

export interface HashSlotsOptions {
  /** Threads of libuv's pool (UV_THREADPOOL_SIZE): how many verifications run at once. */
  readonly threads: number;
  /** One verification done: how long it waited for a thread, and how long it then ran. */
  readonly observe: (waitSeconds: number, runSeconds: number) => void;
  readonly now?: Seconds;
}

export interface HashSlots extends HashMeter {
  /** Verifications waiting for a thread right now. */
  waiting(): number;
}

/**
 * argon2 runs on libuv's thread pool, which takes its tasks first come, first served and tells
 * nobody when one starts. So the wait is read off a model of the pool: a verification starts at once
 * while fewer than `threads` run, else when the one ahead of it in line gets a thread, that is when
 * a running one finishes. The model changes nothing about how verifications run (a gate in front of
 * the pool would leave a thread idle between one hash and the next); it misses only the pool's
 * other, short work (file reads, DNS lookups, hashing a new password), which comes on top.
 */
export function hashSlots({ threads, observe, now = monotonicSeconds }: HashSlotsOptions): HashSlots {
  let running = 0;
  /** Starts of the verifications in line, oldest first. */
  const line: (() => void)[] = [];

  return {
    waiting: () => line.length,
    async measure(verification) {
      const queued = now();
      let started: number | undefined;
      const start = () => {
        started = now();
      };
      if (running < threads) {
        running += 1;
        start();
      } else {
        line.push(start);
      }
      try {
        return await verification();
      } finally {
        const ended = now();
        if (started === undefined) {
          // Done before the model gave it a thread (it failed at once): it held none to pass on.
          line.splice(line.indexOf(start), 1);
          observe(ended - queued, 0);
        } else {
          const next = line.shift();
          if (next) next();
          else running -= 1;
          observe(started - queued, ended - started);
        }
      }
    },
  };
}
