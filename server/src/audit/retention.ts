import { LOG_RETENTION_DAYS } from '@keycard/contract';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/tables/index.ts';
import { pruneAudit } from './audit-log.ts';

/** How often old audit rows are deleted; a day's precision is all the data policy promises. */
export const AUDIT_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export interface AuditRetentionOptions {
  readonly db: Db;
  readonly clock: Clock;
  readonly log: { error(message: string): void; info(message: string): void };
  readonly intervalMs?: number;
}

export interface AuditRetention {
  /** One pass now; answers how many rows went. */
  runOnce(): Promise<number>;
  stop(): void;
}

/**
 * DESIGN §2 Audit log: rows are kept 28 days (the data policy's 4 weeks), then deleted. Runs once at
 * start and then every `intervalMs`; a failed pass is logged and the next one tries again.
 */
export function startAuditRetention(options: AuditRetentionOptions): AuditRetention {
  const { db, clock, log, intervalMs = AUDIT_PRUNE_INTERVAL_MS } = options;
  const runOnce = async () => pruneAudit(db, await clock.now());
  const pass = () => {
    runOnce().then(
      (deleted) => {
        if (deleted > 0)
          log.info(`audit log: deleted ${deleted} events older than ${LOG_RETENTION_DAYS} days`);
      },
      (error: unknown) => log.error(`audit log: pruning failed: ${String(error)}`),
    );
  };
  pass();
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
