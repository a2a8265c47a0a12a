import type { Database } from '../store/database.ts';
import {
  connectionStringOf,
  type ListenerLog,
  listenReporting,
  type NotificationListener,
} from '../store/notification-listener.ts';
import type { PgliteClient } from '../store/pglite-client.ts';
import { PgliteThread } from '../store/pglite-thread-client.ts';
import type { ClientCache } from './client-cache.ts';

/** Where each change of `oidc_client` is announced (its trigger, migration 0009): the client's id, or '' for all. */
export const CLIENT_CHANGES_CHANNEL = 'keycard_client_changed';

/** A notification's payload dropped from `cache`: a client's id, or '' (a truncation) for every client. */
function forgetAnnounced(cache: ClientCache): (clientId: string) => void {
  return (clientId) => (clientId === '' ? cache.forgetAll() : cache.forget(clientId));
}

/**
 * Keeps `cache` true to the database on PostgreSQL, where other processes (instances, the admin CLI)
 * change clients: every announced change drops its entry; the cache answers from memory only while
 * the listener is connected. `retryMs` and `checkEveryMs` as in notification-listener.ts.
 */
export function followClientChanges(
  connectionString: string,
  cache: ClientCache,
  log: ListenerLog,
  timing: { readonly retryMs?: readonly number[]; readonly checkEveryMs?: number } = {},
): NotificationListener {
  return listenReporting({
    connectionString,
    channel: CLIENT_CHANGES_CHANNEL,
    ...timing,
    log,
    messages: {
      back: 'Client changes are heard again: registrations are cached again',
      lost: (reason) =>
        `Client changes can no longer be heard (${reason}): registrations are read from the database until the listener is back`,
    },
    handlers: {
      onNotification: forgetAnnounced(cache),
      onListening: () => cache.enable(),
      onLost: () => cache.disable(),
    },
  });
}

/**
 * The same on the embedded store: its trigger notifies within PGlite, which passes each notification
 * on once the change has committed (through its thread, pglite-thread-client.ts). Nothing else opens
 * the data directory while the service runs (the admin CLI goes through the service's socket), and
 * the database does not go away without the service: the cache is on once LISTEN is, until `lost`
 * settles (the embedded database's thread ended; every statement fails from then on anyway).
 */
export async function followEmbeddedClientChanges(
  client: PgliteClient,
  cache: ClientCache,
  lost?: Promise<unknown>,
): Promise<void> {
  await client.listen(CLIENT_CHANGES_CHANNEL, forgetAnnounced(cache));
  cache.enable();
  void lost?.then(() => cache.disable());
}

/**
 * Keeps `cache` true to `database`, whichever store it is (the service's start, main.ts): resolves once
 * the embedded store listens, or with the PostgreSQL listener, which its caller closes before the
 * database.
 */
export async function followClientChangesIn(
  database: Database,
  cache: ClientCache,
  log: ListenerLog,
): Promise<NotificationListener | undefined> {
  if (database.kind === 'postgres') return followClientChanges(connectionStringOf(database), cache, log);
  const lost = database.client instanceof PgliteThread ? database.client.lost : undefined;
  await followEmbeddedClientChanges(database.client, cache, lost);
  return undefined;
}
