import type { FastifyInstance } from 'fastify';
import type { Db } from '../../store/database.ts';
import { findMail, recentMail } from '../outbox-repository.ts';
import { MAILBOX_CSS, mailboxListPage, mailboxMessagePage } from './mailbox-pages.ts';
import { mailboxEntry } from './mailbox-view.ts';

/** How many messages the mailbox shows; older ones stay in the outbox. */
const SHOWN = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a path belongs to the dev mailbox: in production (where its routes do not exist) such a
 * path answers 404 instead of falling through to the SPA (DESIGN §2 Modes).
 */
export function isDevMailboxPath(path: string): boolean {
  return path.toLowerCase().startsWith('/dev/mail');
}

/**
 * DESIGN §2 Mail: the development mailbox. Registered by app.ts only outside production; its pages
 * show live verification links, so nothing here may be cached.
 */
export async function devMailboxRoutes(app: FastifyInstance, deps: { readonly db: Db }): Promise<void> {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  app.get('/dev/mail', async (_request, reply) => {
    const entries = (await recentMail(deps.db, SHOWN)).map(mailboxEntry);
    return reply.type('text/html; charset=utf-8').send(mailboxListPage(entries));
  });

  app.get('/dev/mail.json', async () => (await recentMail(deps.db, SHOWN)).map(mailboxEntry));

  app.get('/dev/mail.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').send(MAILBOX_CSS),
  );

  app.get<{ Params: { id: string } }>('/dev/mail/:id', async (request, reply) => {
    const row = UUID.test(request.params.id) ? await findMail(deps.db, request.params.id) : undefined;
    if (!row) return reply.callNotFound();
    return reply.type('text/html; charset=utf-8').send(mailboxMessagePage(mailboxEntry(row)));
  });
}
