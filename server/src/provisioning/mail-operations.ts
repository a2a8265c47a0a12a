import { recordAudit } from '../audit/audit-log.ts';
import { parseInput } from '../errors/parse-input.ts';
import { type FailedMail, listFailedMail, retryFailedMail } from '../mail/failed-mail.ts';
import {
  type FailedMailInput,
  type FailedMailResult,
  type FailedMailRow,
  failedMailInput,
} from './mail-schemas.ts';
import { actorDetail, originColumns } from './provisioning-audit.ts';
import type { ProvisioningDeps } from './provisioning-deps.ts';
import { nudgeMail } from './provisioning-mailing.ts';

/** Times as ISO strings, so the answer reads the same in-process and through the admin socket. */
function rowOf(mail: FailedMail): FailedMailRow {
  return {
    id: mail.id,
    kind: mail.kind,
    recipient: mail.recipient,
    subject: mail.subject,
    attempts: mail.attempts,
    lastError: mail.lastError,
    createdAt: mail.createdAt.toISOString(),
    failedAt: mail.failedAt.toISOString(),
  };
}

/**
 * mail:failed (DESIGN §2 Mail, §5): lists the messages the worker gave up on, or with `retry` makes
 * exactly those listed due again with a fresh retry budget, so what is reported is what was retried.
 */
export async function failedMail(deps: ProvisioningDeps, input: FailedMailInput): Promise<FailedMailResult> {
  const { retry } = parseInput(failedMailInput, input);
  const failed = await listFailedMail(deps.db);
  if (!retry) return { retried: false, messages: failed.map(rowOf) };
  const retried = await deps.db.transaction(async (tx) => {
    const ids = new Set(
      await retryFailedMail(
        tx,
        failed.map((mail) => mail.id),
      ),
    );
    const detail = { command: 'mail:failed --retry', messages: ids.size };
    await recordAudit(tx, {
      event: 'admin',
      outcome: 'success',
      ...originColumns(deps),
      detail: actorDetail(deps, detail),
    });
    return ids;
  });
  nudgeMail(deps);
  return { retried: true, messages: failed.filter((mail) => retried.has(mail.id)).map(rowOf) };
}
