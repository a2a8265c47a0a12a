import { asc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../store/database.ts';
import { oidcSigningKeys } from '../store/tables/index.ts';

/** SQL of the rotated signing keys (STYLE §6); what they mean is key-schedule.ts's. */

export type SigningKeyRow = typeof oidcSigningKeys.$inferSelect;

/** Every stored key, the earliest to sign first. */
export function listSigningKeys(db: Db): Promise<SigningKeyRow[]> {
  return db
    .select()
    .from(oidcSigningKeys)
    .orderBy(asc(oidcSigningKeys.activatesAt), asc(oidcSigningKeys.kid));
}

/**
 * Holds off every other rotation until the transaction `db` ends, so two rotations started together
 * cannot both find nothing pending and both add keys.
 */
export async function lockSigningKeys(db: Db): Promise<void> {
  await db.execute(sql`lock table ${oidcSigningKeys} in exclusive mode`);
}

export async function insertSigningKeys(db: Db, rows: readonly SigningKeyRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(oidcSigningKeys).values([...rows]);
}

export async function deleteSigningKeys(db: Db, kids: readonly string[]): Promise<void> {
  if (kids.length > 0) await db.delete(oidcSigningKeys).where(inArray(oidcSigningKeys.kid, [...kids]));
}
