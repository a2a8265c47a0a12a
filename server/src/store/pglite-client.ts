import type { QueryOptions, Results } from '@electric-sql/pglite';

/** A statement's options the service uses: the caller's row shape and parsers (drizzle's). */
export type PgliteQueryOptions = Pick<QueryOptions, 'rowMode' | 'parsers' | 'paramTypes'>;

/** Statements, on the database or within one of its transactions. */
export interface PgliteQueries {
  query<T>(text: string, params?: unknown[], options?: PgliteQueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Results[]>;
}

/** An interactive transaction: every other statement waits until it commits or rolls back. */
export interface PgliteTransaction extends PgliteQueries {
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/**
 * What the service needs of the embedded database, met by PGlite itself (in memory, for tests) and
 * by PgliteThread (the data directory, run in a thread of its own).
 */
export interface PgliteClient extends PgliteQueries {
  transaction<T>(callback: (tx: PgliteTransaction) => Promise<T>): Promise<T>;
  /**
   * LISTENs on `channel`: `callback` gets the payload of each notification on it, once the
   * transaction that sent it has committed.
   */
  listen(channel: string, callback: (payload: string) => void): Promise<unknown>;
  /** The data directory as an uncompressed tar, which PGlite's `loadDataDir` opens. */
  dumpDataDir(compression: 'none'): Promise<Blob>;
  close(): Promise<void>;
}
