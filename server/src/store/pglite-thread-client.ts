import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ParserOptions, Results } from '@electric-sql/pglite';
import type { PgliteClient, PgliteQueryOptions, PgliteTransaction } from './pglite-client.ts';
import type {
  ThreadError,
  ThreadNotification,
  ThreadOpening,
  ThreadReady,
  ThreadReply,
  ThreadRequest,
} from './pglite-thread-messages.ts';

/** A request before it is numbered. */
type Request = ThreadRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;
type Send = (request: Request) => Promise<unknown>;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** pglite-thread.ts beside this file: TypeScript under the test runner, JavaScript once built. */
const THREAD_ENTRY = new URL(
  `./pglite-thread${path.extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
);

/**
 * unavailable.ts reads "PGlite is closed" as an outage (503), as for PGlite in process; the thread's
 * end, whatever the cause, means the same.
 */
const CLOSED = 'PGlite is closed';

function errorOf(thrown: ThreadError): Error {
  const { message, stack, ...fields } = thrown;
  const error = new Error(message);
  if (typeof stack === 'string') error.stack = stack;
  return Object.assign(error, fields);
}

/** The caller's parsers, applied here to the text the database thread left for them. */
function parse<T>(
  result: Results<T>,
  parsers: ParserOptions,
  rowMode: PgliteQueryOptions['rowMode'],
): Results<T> {
  result.fields.forEach((field, index) => {
    const parser = parsers[field.dataTypeID];
    if (!parser) return;
    const key = rowMode === 'array' ? index : field.name;
    for (const row of result.rows as Record<string | number, unknown>[]) {
      const value = row[key];
      if (value !== null && value !== undefined) row[key] = parser(value as string);
    }
  });
  return result;
}

async function runQuery<T>(
  send: Send,
  transaction: number | undefined,
  text: string,
  params: unknown[] = [],
  options: PgliteQueryOptions = {},
): Promise<Results<T>> {
  const { rowMode, paramTypes, parsers = {} } = options;
  const rawTypes = Object.keys(parsers).map(Number);
  const result = (await send({
    op: 'query',
    text,
    params,
    options: { ...(rowMode ? { rowMode } : {}), ...(paramTypes ? { paramTypes } : {}), rawTypes },
    ...(transaction === undefined ? {} : { transaction }),
  })) as Results<T>;
  return rawTypes.length === 0 ? result : parse(result, parsers, rowMode);
}

async function runExec(send: Send, transaction: number | undefined, text: string): Promise<Results[]> {
  return (await send({
    op: 'exec',
    text,
    ...(transaction === undefined ? {} : { transaction }),
  })) as Results[];
}

/**
 * The embedded database in a worker thread (pglite-thread.ts), seen as a PGlite client: drizzle,
 * the migrations and the tracing spans use it as they use PGlite. Only structured-cloneable values
 * cross; parsers, being functions, stay on this side (see ThreadQueryOptions).
 */
export class PgliteThread implements PgliteClient {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  /** The callbacks of each channel listened on (listen). */
  readonly #listeners = new Map<string, ((payload: string) => void)[]>();
  /** Each channel's LISTEN, asked of the database thread once. */
  readonly #listening = new Map<string, Promise<unknown>>();
  #lastId = 0;
  /** Set once the thread is closed or gone: every later call fails with it. */
  #closed: Error | undefined;
  readonly #exited: Promise<void>;
  /** Set when close() starts: the thread's end from then on is the one asked for. */
  #closing = false;
  #lose: (reason: Error) => void = () => {};
  /**
   * Settles with the reason once the thread has ended without being closed: from then on every
   * statement fails as an outage (503), so the service says so in its log (main.ts). Never settles
   * for a thread that was closed.
   */
  readonly lost: Promise<Error> = new Promise((resolve) => {
    this.#lose = resolve;
  });

  private constructor(worker: Worker) {
    this.#worker = worker;
    this.#exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (message: ThreadReply | ThreadNotification) => {
      if ('notification' in message) this.#notify(message.notification);
      else this.#settle(message);
    });
    worker.on('error', (error) => this.#end(new Error(`${CLOSED}: its thread failed`, { cause: error })));
    worker.on('exit', (code) => this.#end(new Error(`${CLOSED}: its thread exited (${code})`)));
  }

  /**
   * Starts the thread; resolves once PGlite has opened (and, for a new directory, initialised).
   * `entry` is the thread's script: pglite-thread.ts, or a test's stand-in for one that fails.
   */
  static async open(opening: ThreadOpening, entry: URL = THREAD_ENTRY): Promise<PgliteThread> {
    const worker = new Worker(entry, { workerData: opening });
    const ready = await new Promise<ThreadReady>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`PGlite's thread exited (${code}) before it opened`)));
    }).finally(() => {
      // Only the listeners added here: the Worker keeps its message port open through its own.
      worker.removeAllListeners('error');
      worker.removeAllListeners('exit');
    });
    if (!ready.ready) {
      await worker.terminate();
      throw errorOf(ready.error);
    }
    return new PgliteThread(worker);
  }

  #settle(reply: ThreadReply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(errorOf(reply.error));
  }

  #notify({ channel, payload }: ThreadNotification['notification']): void {
    for (const callback of this.#listeners.get(channel) ?? []) callback(payload);
  }

  #end(reason: Error): void {
    if (this.#closed === undefined && !this.#closing) this.#lose(reason);
    this.#closed ??= reason;
    for (const pending of this.#pending.values()) pending.reject(reason);
    this.#pending.clear();
  }

  readonly #send: Send = (request) => this.#call(request);

  #call(request: Request): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error(CLOSED, { cause: this.#closed }));
    const id = ++this.#lastId;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id });
    });
  }

  query<T>(text: string, params?: unknown[], options?: PgliteQueryOptions): Promise<Results<T>> {
    return runQuery(this.#send, undefined, text, params, options);
  }

  exec(text: string): Promise<Results[]> {
    return runExec(this.#send, undefined, text);
  }

  /** As PGlite's: commits when the callback resolves, rolls back when it throws. */
  async transaction<T>(callback: (tx: PgliteTransaction) => Promise<T>): Promise<T> {
    const id = (await this.#call({ op: 'begin' })) as number;
    const tx = new ThreadTransaction(this.#send, id);
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      if (!tx.closed) await tx.finish(false);
      throw error;
    }
    if (!tx.closed) await tx.finish(true);
    return result;
  }

  /** As PGlite's: the database thread LISTENs once per channel and passes each notification on. */
  async listen(channel: string, callback: (payload: string) => void): Promise<void> {
    let listening = this.#listening.get(channel);
    if (!listening) {
      listening = this.#call({ op: 'listen', channel });
      this.#listening.set(channel, listening);
      listening.catch(() => this.#listening.delete(channel));
    }
    await listening;
    this.#listeners.set(channel, [...(this.#listeners.get(channel) ?? []), callback]);
  }

  /** Only uncompressed, the one kind the service and its tests make. */
  async dumpDataDir(compression: 'none'): Promise<Blob> {
    return (await this.#call({ op: 'dump', compression })) as Blob;
  }

  /** Waits for the statements before it, closes PGlite and ends the thread. */
  async close(): Promise<void> {
    if (this.#closed) return this.#exited;
    this.#closing = true;
    await this.#call({ op: 'close' });
    this.#end(new Error(CLOSED));
    await this.#exited;
  }
}

class ThreadTransaction implements PgliteTransaction {
  readonly #send: Send;
  readonly #id: number;
  #closed = false;

  constructor(send: Send, id: number) {
    this.#send = send;
    this.#id = id;
  }

  get closed(): boolean {
    return this.#closed;
  }

  #open(): number {
    if (this.#closed) throw new Error('Transaction is closed');
    return this.#id;
  }

  async query<T>(text: string, params?: unknown[], options?: PgliteQueryOptions): Promise<Results<T>> {
    return runQuery(this.#send, this.#open(), text, params, options);
  }

  async exec(text: string): Promise<Results[]> {
    return runExec(this.#send, this.#open(), text);
  }

  rollback(): Promise<void> {
    return this.finish(false);
  }

  /** Commits or rolls back; the transaction is closed afterwards whatever the outcome. */
  async finish(commit: boolean): Promise<void> {
    const transaction = this.#open();
    this.#closed = true;
    await this.#send({ op: 'end', transaction, commit });
  }
}

/**
 * Logs, once, that the embedded database's thread ended without being closed: the service keeps
 * running, but every request that needs the database answers 503 (and readiness fails) until it is
 * restarted, and without this line nothing would say why.
 */
export function reportLostDatabase(
  thread: PgliteThread,
  log: { error(details: { err: Error }, message: string): void },
): void {
  void thread.lost.then((reason) =>
    log.error({ err: reason }, 'The embedded database stopped: restart the service'),
  );
}
