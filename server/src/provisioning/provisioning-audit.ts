import { recordAudit } from '../audit/audit-log.ts';
import type { Db } from '../store/database.ts';
import type { ProvisioningDeps } from './provisioning-deps.ts';

/**
 * The admin action, beside any security event it causes; names the command and, through the admin
 * API, the client that asked (`actor`), never a secret.
 */
export function auditAdmin(
  db: Db,
  deps: Pick<ProvisioningDeps, 'actor' | 'origin'>,
  command: string,
  accountId: string,
  /** What the command set, when it is no secret and the command alone does not say it. */
  set: Record<string, string | null> = {},
): Promise<void> {
  return recordAudit(db, {
    event: 'admin',
    outcome: 'success',
    accountId,
    ...originColumns(deps),
    detail: actorDetail(deps, { command, ...set }),
  });
}

/** The audit columns naming where an admin request came from (ProvisioningDeps.origin). */
export function originColumns(deps: Pick<ProvisioningDeps, 'origin'>): {
  ip: string | null;
  userAgent: string | null;
} {
  return { ip: deps.origin?.address ?? null, userAgent: deps.origin?.userAgent ?? null };
}

/** The audit detail of an admin action: `detail` plus the admin API client that asked, if any. */
export function actorDetail(
  deps: Pick<ProvisioningDeps, 'actor'>,
  detail: Record<string, string | number | boolean | null>,
): Record<string, string | number | boolean | null> {
  return deps.actor === undefined ? detail : { ...detail, actor: deps.actor };
}
