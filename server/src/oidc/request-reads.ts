import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What one protocol request has read of a payload, by key: the token endpoint reads the code's
 * session twice, once in oidc-provider's session-binding check and once for the ID token's `sid`
 * (id-token-claims.ts). The second read gets the first one's answer, so a token request costs one
 * statement fewer (BENCHMARKS.md, Statements per flow). It lasts as long as the request; a write of
 * the same model within it forgets what was read.
 */
interface RequestReads {
  readonly answers: Map<string, Promise<unknown>>;
  /** The payloads (`model:id`) this request found stored: a save of one is a change, not a creation. */
  readonly found: Set<string>;
  /** The session this request found was ended by someone else meanwhile (signedInStateEnded). */
  sessionEnded: boolean;
  /** The grants this request created: they go when its session turns out ended (endCreatedGrants). */
  readonly grantsCreated: Set<string>;
  /** The sign-in this request resumes and the password it was bound to (sign-in-result.ts). */
  resumed: ResumedSignIn | undefined;
}

/**
 * A sign-in a resume signs the browser in with: its account, what its password was when the sign-in
 * finished, and when the account's row last changed as the resume read it.
 */
export interface ResumedSignIn {
  readonly accountId: string;
  readonly passwordSeen: unknown;
  /** The account's count of session endings as the resume read it. */
  readonly sessionsEnded: number;
  readonly accountUpdatedAt: number;
}

const reads = new AsyncLocalStorage<RequestReads>();

/** Runs `work` (a protocol request) with reads of its own. */
export function withRequestReads<T>(work: () => T): T {
  return reads.run(
    {
      answers: new Map(),
      found: new Set(),
      sessionEnded: false,
      grantsCreated: new Set(),
      resumed: undefined,
    },
    work,
  );
}

/** `read()`'s answer, asked once per request and key; outside a request, asked every time. */
export function readOncePerRequest<T>(key: string, read: () => Promise<T>): Promise<T> {
  const known = reads.getStore()?.answers;
  if (!known) return read();
  let answer = known.get(key) as Promise<T> | undefined;
  if (answer === undefined) {
    answer = read();
    known.set(key, answer);
  }
  return answer;
}

/** Forgets what this request read under keys starting with `prefix` (after a write there). */
export function forgetRequestReads(prefix: string): void {
  const known = reads.getStore()?.answers;
  if (!known) return;
  for (const key of known.keys()) if (key.startsWith(prefix)) known.delete(key);
}

/** Notes that this request found `model` `id` stored. */
export function noteFound(model: string, id: string): void {
  reads.getStore()?.found.add(`${model}:${id}`);
}

/** Notes that `model` `id` is gone or replaced by this request's own doing (a destroy). */
export function forgetFound(model: string, id: string): void {
  reads.getStore()?.found.delete(`${model}:${id}`);
}

/** Whether this request found `model` `id` stored (and did not remove it itself since). */
export function wasFound(model: string, id: string): boolean {
  return reads.getStore()?.found.has(`${model}:${id}`) ?? false;
}

/** Notes that the session this request found is gone, removed by someone else meanwhile. */
export function noteSessionEnded(): void {
  const known = reads.getStore();
  if (known) known.sessionEnded = true;
}

/** Whether this request found that the session it read was removed meanwhile (noteSessionEnded). */
export function sessionEndedMeanwhile(): boolean {
  return reads.getStore()?.sessionEnded ?? false;
}

/** Notes that this request created the grant `id` (it found none stored under it). */
export function noteGrantCreated(id: string): void {
  reads.getStore()?.grantsCreated.add(id);
}

/** The grants this request created, forgotten here: whoever asks ends them. */
export function takeGrantsCreated(): string[] {
  const created = reads.getStore()?.grantsCreated;
  if (!created) return [];
  const ids = [...created];
  created.clear();
  return ids;
}

/** Notes the sign-in this request resumes, once its binding to the password has been checked. */
export function noteResumedSignIn(signIn: ResumedSignIn): void {
  const known = reads.getStore();
  if (known) known.resumed = signIn;
}

/** The sign-in this request resumes, if any (noteResumedSignIn). */
export function resumedSignIn(): ResumedSignIn | undefined {
  return reads.getStore()?.resumed;
}
