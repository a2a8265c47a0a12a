import type { RowMode } from '@electric-sql/pglite';

/**
 * What the service's thread and the embedded database's thread (pglite-thread.ts) send each other.
 * Everything here survives structured cloning: no functions, no class instances that must keep
 * their prototype.
 */

/** How the database thread opens PGlite: a data directory, or memory (optionally from a dump). */
export type ThreadOpening =
  | { readonly dataDir: string; readonly startParams: readonly string[] }
  | { readonly loadDataDir?: Blob; readonly startParams: readonly string[] };

/**
 * A statement's options as far as they cross threads. `rawTypes` lists the type OIDs for which the
 * caller brought a parser of its own (a function, which cannot cross): the database thread leaves
 * those values as PostgreSQL's text and the caller's thread applies its parser.
 */
export interface ThreadQueryOptions {
  readonly rowMode?: RowMode;
  readonly paramTypes?: number[];
  readonly rawTypes: readonly number[];
}

/** A request; `transaction` names the open transaction a statement belongs to. */
export type ThreadRequest = { readonly id: number } & (
  | {
      readonly op: 'query';
      readonly text: string;
      readonly params: unknown[];
      readonly options: ThreadQueryOptions;
      readonly transaction?: number;
    }
  | { readonly op: 'exec'; readonly text: string; readonly transaction?: number }
  /** Waits for every other statement and transaction, then holds PGlite until `end`. */
  | { readonly op: 'begin' }
  /** Commits (or rolls back) and releases the transaction. */
  | { readonly op: 'end'; readonly transaction: number; readonly commit: boolean }
  | { readonly op: 'dump'; readonly compression: 'none' }
  /** LISTENs on the channel: each notification on it is then sent as a ThreadNotification. */
  | { readonly op: 'listen'; readonly channel: string }
  | { readonly op: 'close' }
);

/** A database error's fields (code, detail, constraint …), copied because cloning drops them. */
export type ThreadError = { readonly message: string } & Readonly<Record<string, unknown>>;

/**
 * A notification on a channel the service listens on, sent as PGlite hears it: after the statement
 * that committed it, before that statement's reply.
 */
export type ThreadNotification = {
  readonly notification: { readonly channel: string; readonly payload: string };
};

export type ThreadReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: ThreadError };

/** The first message of the database thread: opened, or why not. */
export type ThreadReady = { readonly ready: true } | { readonly ready: false; readonly error: ThreadError };
