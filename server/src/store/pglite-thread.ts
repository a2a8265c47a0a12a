import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type {
  ThreadError,
  ThreadNotification,
  ThreadOpening,
  ThreadReady,
  ThreadReply,
  ThreadRequest,
} from './pglite-thread-messages.ts';

/**
 * The embedded database's own thread (started by pglite-thread-client.ts): it owns the PGlite
 * instance, so PostgreSQL's work (compiled to WebAssembly) never blocks the service's event loop.
 * Statements arrive as messages and run one at a time, in PGlite's own order: a statement outside
 * the open transaction waits for it to end, as it does in process.
 */

interface OpenTransaction {
  readonly tx: Transaction;
  /** Resolving commits, rejecting rolls back: PGlite's transaction callback returns this promise. */
  readonly release: { resolve(): void; reject(reason: Error): void };
  readonly ending: Promise<void>;
}

/** Thrown into PGlite's transaction callback to make it roll back. */
const ROLL_BACK = new Error('rolled back by its caller');

/** A database error's fields: structured cloning keeps only an Error's message and stack. */
function describeError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    // queryOptions holds the caller's parsers, which are functions.
    if (key !== 'queryOptions' && typeof value !== 'function') fields[key] = value;
  }
  return { ...fields, name: error.name, message: error.message, stack: error.stack };
}

function open(opening: ThreadOpening): Promise<PGlite> {
  const startParams = [...opening.startParams];
  if ('dataDir' in opening) return PGlite.create(opening.dataDir, { startParams });
  return PGlite.create(
    opening.loadDataDir ? { loadDataDir: opening.loadDataDir, startParams } : { startParams },
  );
}

/** The caller brought its own parsers for these types: their values go back as PostgreSQL's text. */
function textParsers(types: readonly number[]): Record<number, (text: string) => string> {
  return Object.fromEntries(types.map((type) => [type, (text: string) => text]));
}

function serve(pglite: PGlite, port: NonNullable<typeof parentPort>): void {
  const transactions = new Map<number, OpenTransaction>();
  let lastTransaction = 0;

  function on(transaction: number | undefined): Pick<PGlite, 'query' | 'exec'> {
    if (transaction === undefined) return pglite;
    const open = transactions.get(transaction);
    if (!open) throw new Error('Transaction is closed');
    return open.tx;
  }

  /** Resolves once BEGIN ran, which waits for the statements and transactions before it. */
  async function begin(): Promise<number> {
    const id = ++lastTransaction;
    let release: OpenTransaction['release'] | undefined;
    let opened: (tx: Transaction) => void = () => {};
    const tx = new Promise<Transaction>((resolve) => {
      opened = resolve;
    });
    const ending = pglite.transaction(
      (tx) =>
        new Promise<void>((resolve, reject) => {
          release = { resolve, reject };
          opened(tx);
        }),
    );
    // A BEGIN that fails ends the transaction before it opens; otherwise `end` awaits the ending.
    const open = await Promise.race([tx, ending.then(() => tx)]);
    if (!release) throw new Error('PGlite opened a transaction without running its callback');
    transactions.set(id, { tx: open, release, ending });
    return id;
  }

  async function end(transaction: number, commit: boolean): Promise<void> {
    const open = transactions.get(transaction);
    if (!open) throw new Error('Transaction is closed');
    transactions.delete(transaction);
    if (commit) open.release.resolve();
    else open.release.reject(ROLL_BACK);
    try {
      await open.ending;
    } catch (error) {
      if (error !== ROLL_BACK) throw error;
    }
  }

  // Async, so a request that fails before its statement runs (a transaction that is not open) is
  // refused in a reply, not thrown out of the message handler, which would end this thread.
  async function answer(request: ThreadRequest): Promise<unknown> {
    switch (request.op) {
      case 'query': {
        const { rowMode, paramTypes, rawTypes } = request.options;
        return on(request.transaction).query(request.text, request.params, {
          ...(rowMode ? { rowMode } : {}),
          ...(paramTypes ? { paramTypes } : {}),
          parsers: textParsers(rawTypes),
        });
      }
      case 'exec':
        return on(request.transaction).exec(request.text);
      case 'begin':
        return begin();
      case 'end':
        return end(request.transaction, request.commit);
      case 'dump':
        return pglite.dumpDataDir(request.compression);
      case 'listen': {
        const { channel } = request;
        await pglite.listen(channel, (payload) =>
          port.postMessage({ notification: { channel, payload } } satisfies ThreadNotification),
        );
        return undefined;
      }
      case 'close':
        // Once the reply is out, nothing keeps this thread alive and it exits.
        return pglite.close().then(() => setImmediate(() => port.close()));
    }
  }

  function reply(message: ThreadReply): void {
    try {
      port.postMessage(message);
    } catch (error) {
      // A value that cannot be cloned: the caller gets an error instead of waiting for ever.
      port.postMessage({ id: message.id, ok: false, error: describeError(error) } satisfies ThreadReply);
    }
  }

  port.on('message', (request: ThreadRequest) => {
    answer(request).then(
      (value) => reply({ id: request.id, ok: true, value: request.op === 'close' ? undefined : value }),
      (error: unknown) => reply({ id: request.id, ok: false, error: describeError(error) }),
    );
  });
}

const port = parentPort;
if (!port) throw new Error('pglite-thread.ts runs as a worker thread (pglite-thread-client.ts)');
try {
  const pglite = await open(workerData as ThreadOpening);
  serve(pglite, port);
  port.postMessage({ ready: true } satisfies ThreadReady);
} catch (error) {
  port.postMessage({ ready: false, error: describeError(error) } satisfies ThreadReady);
  port.close();
}
