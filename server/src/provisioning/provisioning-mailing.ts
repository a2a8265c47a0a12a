import type { Config } from '../config.ts';
import { createOutbox } from '../mail/outbox.ts';
import { fixedClock } from '../recovery/fixed-clock.ts';
import type { MailingDeps } from '../recovery/recovery-deps.ts';
import type { Db } from '../store/database.ts';
import { retriedTransaction } from '../store/retried-transaction.ts';
import { clockOf, type ProvisioningDeps, type ProvisioningMailing } from './provisioning-deps.ts';

const noNudge = () => undefined;

/**
 * Queues through an outbox built from `config`. Without a worker in this process (the CLI) there is
 * nothing to nudge: the service's worker picks the rows up at its next poll, or at its next start.
 */
export function provisioningMailing(
  config: Pick<Config, 'publicUrl' | 'site' | 'codeLifetimes'>,
  nudge: () => void = noNudge,
): ProvisioningMailing {
  const outbox = createOutbox(config);
  return {
    publicUrl: config.publicUrl,
    mail: { queue: outbox.queue, nudge },
    codeLifetimes: config.codeLifetimes,
  };
}

/** A programming error, not a refusal: every caller that runs mail commands passes `mailing`. */
function mailingOf(deps: ProvisioningDeps): ProvisioningMailing {
  if (!deps.mailing) throw new Error('this process has no mail outbox for admin commands');
  return deps.mailing;
}

/**
 * Runs `work` in one transaction and hands it the recovery domain's MailingDeps bound to that
 * transaction: codes, mail rows and the admin's own writes commit or roll back together (the
 * recovery functions' own transactions become savepoints in it). Their clock is read once before,
 * as inside a transaction the database clock cannot be asked on PGlite; the worker is woken only
 * after the commit.
 */
export async function inMailingTransaction<T>(
  deps: ProvisioningDeps,
  work: (tx: Db, mailing: MailingDeps) => Promise<T>,
): Promise<T> {
  const { publicUrl, mail, codeLifetimes } = mailingOf(deps);
  const now = await clockOf(deps).now();
  // Run again after a conflict with a transaction on the same rows (an account's sessions, grants).
  const result = await retriedTransaction(deps.db, (tx) =>
    work(tx, {
      db: tx,
      clock: fixedClock(now),
      publicUrl,
      mail: { queue: mail.queue, nudge: noNudge },
      codeLifetimes,
    }),
  );
  mail.nudge();
  return result;
}

/** Wakes the worker, when this process has one, e.g. after failed mail was made due again. */
export function nudgeMail(deps: ProvisioningDeps): void {
  deps.mailing?.mail.nudge();
}
