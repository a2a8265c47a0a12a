import { parentPort } from 'node:worker_threads';

/**
 * A stand-in for the embedded database's thread (store/pglite-thread.ts) that opens and then, at
 * its first request, ends on its own with exit code 70, as a crash inside PGlite would end it.
 */
const port = parentPort;
if (!port) throw new Error('ending-database-thread.ts runs as a worker thread');
port.postMessage({ ready: true });
port.once('message', () => process.exit(70));
