import type { Database } from '../store/database.ts';
import {
  connectionStringOf,
  type ListenerLog,
  listenReporting,
  type NotificationListener,
} from '../store/notification-listener.ts';
import type { PgliteClient } from '../store/pglite-client.ts';
import type { KeyScheduleCache } from './provider-source.ts';

/**
 * Where each change of the stored signing keys or their revocations is announced (the tables'
 * triggers, migration 0013), with an empty payload: the whole schedule is read again.
 */
export const KEY_CHANGES_CHANNEL = 'keycard_signing_keys_changed';

/**
 * Tells `schedule` of every rotation or revocation another process (an instance, the admin CLI)
 * commits on PostgreSQL, so a leaked key stops signing and leaves the JWKS at this instance's next
 * request instead of up to KEY_RELOAD_MS (30 s) later. The periodic read stays as the fallback: while
 * the listener is lost a change is still read within 30 s, and once it is back the keys are read
 * again in case one was missed. `retryMs` and `checkEveryMs` as in notification-listener.ts.
 */
export function followKeyChanges(
  connectionString: string,
  schedule: KeyScheduleCache,
  log: ListenerLog,
  timing: { readonly retryMs?: readonly number[]; readonly checkEveryMs?: number } = {},
): NotificationListener {
  return listenReporting({
    connectionString,
    channel: KEY_CHANGES_CHANNEL,
    ...timing,
    log,
    messages: {
      back: 'Signing key changes are heard again: rotations and revocations apply at once',
      lost: (reason) =>
        `Signing key changes can no longer be heard (${reason}): another process's rotation or revocation applies here within 30 s until the listener is back`,
    },
    handlers: {
      onNotification: () => schedule.invalidate(),
      onListening: () => schedule.invalidate(),
      onLost: () => {},
    },
  });
}

/**
 * The same on the embedded store, whose trigger notifies within PGlite once the change has committed:
 * the admin CLI's commands, which run in the service through its socket, apply before their answer.
 */
export async function followEmbeddedKeyChanges(
  client: PgliteClient,
  schedule: KeyScheduleCache,
): Promise<void> {
  await client.listen(KEY_CHANGES_CHANNEL, () => schedule.invalidate());
}

/**
 * Keeps `schedule` told of changes in `database`, whichever store it is (the service's start, main.ts):
 * resolves once the embedded store listens, or with the PostgreSQL listener, which its caller closes
 * before the database.
 */
export async function followKeyChangesIn(
  database: Database,
  schedule: KeyScheduleCache,
  log: ListenerLog,
): Promise<NotificationListener | undefined> {
  if (database.kind === 'postgres') return followKeyChanges(connectionStringOf(database), schedule, log);
  await followEmbeddedKeyChanges(database.client, schedule);
  return undefined;
}
