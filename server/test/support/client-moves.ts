import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/store/database.ts';
import { oidcClients } from '../../src/store/tables/index.ts';
import { CLIENT_ID, RP, startAuthorization, TestBrowser } from './oidc-flow.ts';

/**
 * Changes of the test client's registration, and whether an instance follows them: the client cache's
 * tests (client-changes*.test.ts, fleet.test.ts).
 */

/** Where the tests move the test client's redirect URI to. */
export const MOVED_URI = `${RP}/moved-callback`;

/** Whether `app` takes an authorization request of the test client with `redirectUri` (else it refuses it). */
export function takesRedirect(app: FastifyInstance, redirectUri: string): Promise<boolean> {
  return startAuthorization(new TestBrowser(app), { redirect_uri: redirectUri }).then(
    () => true,
    () => false,
  );
}

/**
 * What another process's admin CLI, or an operator's statement, does: the test client's redirect URI
 * changed in the table.
 */
export async function moveRedirect(db: Db, to: string): Promise<void> {
  await db
    .update(oidcClients)
    .set({ redirectUris: [to] })
    .where(eq(oidcClients.clientId, CLIENT_ID));
}

/** Runs `change` with the table's change trigger (migration 0009) off: nothing is announced. */
export async function unannounced(db: Db, change: () => Promise<void>): Promise<void> {
  await db.execute(sql`alter table oidc_client disable trigger oidc_client_changed`);
  try {
    await change();
  } finally {
    await db.execute(sql`alter table oidc_client enable trigger oidc_client_changed`);
  }
}
