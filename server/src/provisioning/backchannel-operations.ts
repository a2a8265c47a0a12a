import { recordAudit } from '../audit/audit-log.ts';
import { type FailedLogout, listFailedLogouts, retryFailedLogouts } from '../backchannel/failed-logouts.ts';
import { parseInput } from '../errors/parse-input.ts';
import { NotFoundError } from '../errors/service-error.ts';
import {
  type FailedLogoutRow,
  type FailedLogoutsInput,
  type FailedLogoutsResult,
  failedLogoutsInput,
} from './backchannel-schemas.ts';
import { actorDetail, originColumns } from './provisioning-audit.ts';
import { clockOf, type ProvisioningDeps } from './provisioning-deps.ts';

/** Times as ISO strings, so the answer reads the same in-process and through the admin socket. */
function rowOf(logout: FailedLogout): FailedLogoutRow {
  return {
    id: logout.id,
    clientId: logout.clientId,
    attempts: logout.attempts,
    lastError: logout.lastError,
    createdAt: logout.createdAt.toISOString(),
    failedAt: logout.failedAt.toISOString(),
  };
}

/**
 * backchannel:failed (as mail:failed, DESIGN §5): lists the back-channel logout tokens the worker
 * gave up on, or with `retry` makes those listed (or the one `id` names) due again with a fresh retry
 * budget, so what is reported is what was retried. The service's worker posts them within its poll
 * interval (5 seconds).
 */
export async function failedLogouts(
  deps: ProvisioningDeps,
  input: FailedLogoutsInput,
): Promise<FailedLogoutsResult> {
  const { retry, id } = parseInput(failedLogoutsInput, input);
  const failed = await listFailedLogouts(deps.db);
  if (!retry) return { retried: false, logouts: failed.map(rowOf) };
  const chosen = id === undefined ? failed : failed.filter((logout) => logout.id === id);
  if (id !== undefined && chosen.length === 0) {
    throw new NotFoundError(`no failed logout token with the id ${id}`);
  }
  // Read before the transaction: on the embedded database a read beside it would wait for it.
  const now = await clockOf(deps).now();
  const retried = await deps.db.transaction(async (tx) => {
    const ids = new Set(
      await retryFailedLogouts(
        tx,
        chosen.map((logout) => logout.id),
        now,
      ),
    );
    const detail = { command: 'backchannel:failed --retry', logouts: ids.size };
    await recordAudit(tx, {
      event: 'admin',
      outcome: 'success',
      ...originColumns(deps),
      detail: actorDetail(deps, detail),
    });
    return ids;
  });
  return { retried: true, logouts: chosen.filter((logout) => retried.has(logout.id)).map(rowOf) };
}
