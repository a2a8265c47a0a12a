import { siteTextsFor } from '@keycard/contract';
import type { Config } from '../config.ts';
import type { Db } from '../store/database.ts';
import type { MailKind, MailRequest } from './mail-kinds.ts';
import { checkMailRequest } from './mail-request.ts';
import { insertMail } from './outbox-repository.ts';
import { renderMail } from './render-mail.ts';

/**
 * Queuing mail (DESIGN §2 Mail). Created once from the config:
 *
 *   const outbox = createOutbox(config);
 *   await db.transaction(async (tx) => {
 *     const code = await issueCode(tx, …);
 *     await outbox.queue(tx, { kind: 'password_reset', to, language, values: { userName, link } });
 *   });
 *
 * `queue` renders the message in its language and inserts one outbox row through the Db it is given,
 * so passing the caller's transaction makes the code and its mail commit or roll back together. It
 * sends nothing: the worker (worker.ts) delivers committed rows, so no HTTP answer waits for SMTP.
 * In the service, use `deps.mail` (mail-service.ts), which adds `nudge()` to wake the worker.
 */
export interface Outbox {
  /**
   * Throws MailRequestError, before touching the database, when `to` is not one plain address or
   * `values.link` does not start with PUBLIC_URL (a link to another origin is never sent).
   */
  queue<K extends MailKind>(db: Db, request: MailRequest<K>): Promise<QueuedMail>;
}

export interface QueuedMail {
  /** The outbox row, e.g. for an audit detail or a test. */
  readonly id: string;
}

export function createOutbox(config: Pick<Config, 'publicUrl' | 'site'>): Outbox {
  return {
    async queue(db, request) {
      checkMailRequest(request, config.publicUrl);
      const rendered = renderMail(request, siteTextsFor(config.site, request.language));
      const id = await insertMail(db, {
        kind: request.kind,
        accountId: request.accountId,
        recipient: request.to,
        subject: rendered.subject,
        textBody: rendered.text,
        htmlBody: rendered.html,
        expiresAt: request.expiresAt ?? null,
        codeId: request.codeId ?? null,
      });
      return { id };
    },
  };
}
