import { AsyncLocalStorage } from 'node:async_hooks';
import type { SignInRecord } from '../accounts/account-repository.ts';

/** A sign-in record waiting for the save of its interaction (saveSignInResult). */
interface Waiting {
  readonly uid: string;
  readonly record: SignInRecord;
  taken: boolean;
}

const waiting = new AsyncLocalStorage<Waiting>();

/** An interaction as oidc-provider loads it: `save` writes it through the storage adapter. */
interface SavedInteraction {
  readonly uid: string;
  save(ttl: number): Promise<unknown>;
}

/**
 * Saves `interaction` (its result set by the caller) for `ttl` seconds, with the sign-in put on
 * record in the same statement: the storage adapter takes `record` when it writes this
 * interaction (takeSignInRecord). Resolves only once all of it is written; a save that wrote
 * nothing to the adapter is refused, since the sign-in would then have no record.
 */
export async function saveSignInResult(
  interaction: SavedInteraction,
  ttl: number,
  record: SignInRecord,
): Promise<void> {
  const slot: Waiting = { uid: interaction.uid, record, taken: false };
  await waiting.run(slot, () => interaction.save(ttl));
  if (!slot.taken) throw new Error(`Interaction ${interaction.uid} was saved without its sign-in record`);
}

/**
 * For the storage adapter's upsert of `model` `id`: the sign-in record to write with it, once;
 * undefined for every other write (another model or interaction, or the record already taken).
 */
export function takeSignInRecord(model: string, id: string): SignInRecord | undefined {
  const slot = waiting.getStore();
  if (slot === undefined || slot.taken || model !== 'Interaction' || id !== slot.uid) return undefined;
  slot.taken = true;
  return slot.record;
}
