import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from './database.ts';
import { secrets } from './schema.ts';

/** A fresh 256-bit random secret, base64url. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The stored secret `name`, created with `create()` the first time. Insert-then-read (not
 * read-then-insert) so instances starting together all end up with the one value that won.
 */
export async function getOrCreateSecret(db: Db, name: string, create = randomSecret): Promise<string> {
  await db.insert(secrets).values({ name, value: create() }).onConflictDoNothing({ target: secrets.name });
  const [row] = await db.select({ value: secrets.value }).from(secrets).where(eq(secrets.name, name));
  if (row === undefined) throw new Error(`secret ${name} vanished right after it was stored`);
  return row.value;
}
