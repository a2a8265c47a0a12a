import { AsyncLocalStorage } from 'node:async_hooks';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Account, SignInRecord } from '../accounts/account-repository.ts';
import { noteResumedSignIn, type ResumedSignIn } from './request-reads.ts';

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

/**
 * The password a finished sign-in saw, kept in its interaction's result beside oidc-provider's own
 * fields (which it reads by name and leaves this one alone): the account's `passwordChangedAt` when
 * the sign-in read the account, before it checked anything. ISO text, or null for none set.
 */
const PASSWORD_SEEN = 'passwordChangedAt';

/**
 * The organisation's provider that vouched for an upstream sign-in (its id) and the person it vouched
 * for (their subject there): the account must still be linked to that very identity when the sign-in
 * is resumed. An unbind of the domain unlinks the account and ends its sessions; a sign-in that came
 * back before it must not start one after it, nor after the account was linked again to someone else
 * at the same provider.
 */
const UPSTREAM_SEEN = 'externalIdpId';
const UPSTREAM_SUBJECT_SEEN = 'externalSubject';

/**
 * How many times every session of the account had been ended when the sign-in read it (the account's
 * `sessionsEnded`). Anything that ends them (a reset, a disable, an unbind, an expiry) counts one more,
 * so a sign-in that finished before is not resumed after it, even when what ended the sessions was
 * undone meanwhile (a disable and an enable) and the password never changed.
 */
const ENDINGS_SEEN = 'sessionsEnded';

/** An upstream sign-in as its result records it. */
export interface UpstreamSignIn {
  readonly providerId: string;
  readonly subject: string;
  readonly authTime: number | undefined;
}

/** The account as a sign-in read it, before it checked anything. */
export type SignedInAccount = Pick<
  Account,
  'id' | 'passwordChangedAt' | 'mustChangePassword' | 'sessionsEnded'
>;

/**
 * The account's password as a result records it: when it was set, as ISO text, or null for none; or
 * `expired` once an administrator made it expire (user:expire-password), so a sign-in the password
 * finished before that order is not resumed after it either.
 */
function passwordSeen(account: SignedInAccount): string | null {
  if (account.mustChangePassword) return 'expired';
  return account.passwordChangedAt?.toISOString() ?? null;
}

/**
 * An interaction's login result, bound to the password `account` had when the sign-in read it, and
 * for a sign-in `upstream` to the provider that vouched for it. Its `authTime` (epoch seconds) is
 * when the person authenticated, when that was before this sign-in (an organisation's provider that
 * kept its own session): the ID token's auth_time and every later max_age check count from it.
 * Unset: now, when the sign-in is resumed.
 */
export function boundLoginResult(account: SignedInAccount, amr: string[], upstream?: UpstreamSignIn) {
  return {
    login: {
      accountId: account.id,
      amr,
      remember: true,
      ...(upstream?.authTime === undefined ? {} : { ts: upstream.authTime }),
      ...(upstream === undefined
        ? {}
        : { [UPSTREAM_SEEN]: upstream.providerId, [UPSTREAM_SUBJECT_SEEN]: upstream.subject }),
      [PASSWORD_SEEN]: passwordSeen(account),
      [ENDINGS_SEEN]: account.sessionsEnded,
    },
  };
}

/** Whether the result's binding holds for `account` as the resume reads it. */
function stillAsSeen(
  login: Record<string, unknown>,
  account: SignedInAccount & Pick<Account, 'externalIdpId' | 'externalSubject'>,
) {
  if (login[PASSWORD_SEEN] !== passwordSeen(account)) return false;
  // A result stored before the count existed carries none: its password and provider still bind it.
  if (ENDINGS_SEEN in login && login[ENDINGS_SEEN] !== account.sessionsEnded) return false;
  if (!(UPSTREAM_SEEN in login)) return true;
  return (
    login[UPSTREAM_SEEN] === account.externalIdpId && login[UPSTREAM_SUBJECT_SEEN] === account.externalSubject
  );
}

/**
 * Whether a resumed sign-in still stands by `account` as read after the resume's writes: the account
 * is there, enabled, with the password the sign-in saw, its sessions not ended since the resume read
 * it, and its row unchanged since then.
 */
export function signInStillBound(
  account: (SignedInAccount & Pick<Account, 'disabledAt' | 'updatedAt'>) | null,
  resumed: ResumedSignIn,
): boolean {
  return (
    account !== null &&
    account.disabledAt === null &&
    passwordSeen(account) === resumed.passwordSeen &&
    account.sessionsEnded === resumed.sessionsEnded &&
    // Any change of the row since the resume read it (an unbound domain, a disable and enable, an
    // expiry ordered again) may have ended the account's sessions: the sign-in is made again.
    account.updatedAt.getTime() === resumed.accountUpdatedAt
  );
}

/** What Session.loginAccount sets when a resume signs the browser in. */
const SIGNED_IN_FIELDS = ['accountId', 'loginTs', 'amr', 'acr', 'transient'] as const;

/**
 * Undoes the resume of a sign-in that finished before the account's password last changed (DESIGN §2
 * Reset password: all sessions of the account end), or, upstream, before the account was unlinked
 * from the provider that vouched for it (an unbind), and says whether it did. A reset deletes the
 * sessions, but a sign-in that has finished and not yet been resumed is not a session yet: its resume
 * link would start one with the old password for up to the interaction's hour, and a sign-in whose
 * check overlapped the reset would save its result after the reset had ended everything. So the
 * resume compares the password the sign-in saw with the account's now; when they differ, the session
 * the resume has just signed in is signed out again, and the provider asks for a sign-in as for a
 * browser without one. A result stored without the binding (before it existed) passes.
 */
export function forgetOutdatedSignIn(
  ctx: KoaContextWithOIDC,
  account: SignedInAccount & Pick<Account, 'updatedAt' | 'externalIdpId' | 'externalSubject'>,
): boolean {
  const login = (ctx.oidc?.entities.Interaction?.result as { login?: Record<string, unknown> } | undefined)
    ?.login;
  if (login?.accountId !== account.id || !(PASSWORD_SEEN in login)) return false;
  if (stillAsSeen(login, account)) {
    // Checked again once the resume has written its session (storage-adapter.ts): a reset that
    // commits between this read and those writes must end them too.
    noteResumedSignIn({
      accountId: account.id,
      passwordSeen: login[PASSWORD_SEEN],
      sessionsEnded: account.sessionsEnded,
      accountUpdatedAt: account.updatedAt.getTime(),
    });
    return false;
  }
  // Deleted, not set: the provider's session refuses an empty accountId. The resume has already
  // marked the session changed, so it is saved without them.
  const session = ctx.oidc.session as Partial<Record<(typeof SIGNED_IN_FIELDS)[number], unknown>>;
  for (const field of SIGNED_IN_FIELDS) delete session[field];
  // Stryker disable next-line BooleanLiteral: with the session's sign-in gone the provider asks for one whichever the answer; true keeps it from loading the account for nobody
  return true;
}
