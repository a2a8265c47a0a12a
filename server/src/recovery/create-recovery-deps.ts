import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import type { SharedCounters } from '../store/redis.ts';
import type { MailQueue, RecoveryDeps } from './recovery-deps.ts';
import { createRecoveryLimits } from './recovery-limits.ts';

export interface RecoveryParts {
  readonly config: Pick<
    Config,
    | 'publicUrl'
    | 'defaultRedirectUrl'
    | 'passwordHistory'
    | 'passwordMinScore'
    | 'codeLifetimes'
    | 'forgotPasswordLimits'
  >;
  readonly db: Db;
  readonly mail: MailQueue;
  readonly clock: Clock;
  /** Shared rate-limit counters (REDIS_URL). */
  readonly shared?: SharedCounters;
}

/** The recovery flows' dependencies, built once per app from the config (http/app.ts). */
export function createRecoveryDeps({ config, db, mail, clock, shared }: RecoveryParts): RecoveryDeps {
  return {
    db,
    clock,
    mail,
    publicUrl: config.publicUrl,
    defaultRedirectUrl: config.defaultRedirectUrl,
    passwordHistory: config.passwordHistory,
    passwordMinScore: config.passwordMinScore,
    codeLifetimes: config.codeLifetimes,
    limits: createRecoveryLimits({
      ...(shared ? { shared } : {}),
      forgotPassword: config.forgotPasswordLimits,
    }),
    sleep: (ms) => sleep(ms),
  };
}
