import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * PGlite allows one process per data directory; a second opener silently loses rows (DESIGN §5).
 * The service therefore holds DATA_DIR/keycard.lock, containing its pid, while it runs on PGlite.
 */
export const LOCK_FILE_NAME = 'keycard.lock';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number | undefined,
  ) {
    super(
      `Another Keycard process${pid === undefined ? '' : ` (pid ${pid})`} is using the data directory ${dataDir}. ` +
        'Stop it first, or give this one its own DATA_DIR (or a DATABASE_URL). ' +
        `If no Keycard is running, delete ${path.join(dataDir, LOCK_FILE_NAME)}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still ours; safe to call more than once. */
  release(): void;
}

/** Whether a process of that id exists (signal 0 checks without sending anything). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else — still a holder.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Creates `file` holding `pid`, or answers false when it exists. Linking a finished temporary file is
 * atomic, so of two processes starting together exactly one wins, and nobody ever reads an empty lock.
 */
function createWithContent(file: string, pid: number): boolean {
  const draft = `${file}.${pid}.tmp`;
  writeFileSync(draft, `${pid}\n`);
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

export interface LockOptions {
  readonly pid?: number;
  readonly isAlive?: (pid: number) => boolean;
}

/** Whether the lock's holder is another process that runs: then the directory is taken. */
function heldByOther(holder: number | undefined, { pid, isAlive }: Required<LockOptions>): holder is number {
  return holder !== undefined && holder !== pid && isAlive(holder);
}

/**
 * A takeover takes microseconds; a guard older than this was left by a process that died in one. Its
 * removal is not itself guarded: two processes finding one abandoned guard at the same moment could
 * remove each other's, which takes a crash within a takeover and two starts within the same moment
 * after it.
 */
const ABANDONED_GUARD_MS = 10_000;

/** How long to wait for another process's takeover before looking again. */
const TAKEOVER_WAIT_MS = 50;

function waitSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Removes a lock left by a dead process, under a guard (a directory beside the lock, which only one
 * process can create): deleting a stale lock by name would race, as another process that found the
 * same stale lock may have replaced it with its own a moment ago, and deleting that one would let
 * both open the database. Under the guard nobody else removes a lock, and a new one is only ever
 * created where none is, so the lock read again there is the one deleted. When another process holds
 * the guard, this one waits a moment and looks again; a guard abandoned by a crash is removed.
 */
function takeOverStale(file: string, options: Required<LockOptions>): void {
  const guard = `${file}.takeover`;
  try {
    mkdirSync(guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const age = Date.now() - (statSync(guard, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > ABANDONED_GUARD_MS) rmSync(guard, { recursive: true, force: true });
    else waitSync(TAKEOVER_WAIT_MS);
    return;
  }
  try {
    if (!heldByOther(holderOf(file), options)) rmSync(file, { force: true });
  } finally {
    rmSync(guard, { recursive: true, force: true });
  }
}

/**
 * Takes the data directory's lock or throws DataDirLockedError naming the directory and the holder.
 * A lock left by a dead process (crash, kill -9) is taken over; so is one carrying our own pid, which
 * only happens when a container restarts the service under the same pid. Of any number of processes
 * taking over one stale lock at the same moment, one gets it (takeOverStale).
 */
export function acquireDataDirLock(dataDir: string, options: LockOptions = {}): DataDirLock {
  const resolved = { pid: process.pid, isAlive: isRunning, ...options };
  const { pid } = resolved;
  // Made for the service's user alone: it holds the embedded database and the admin socket.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, LOCK_FILE_NAME);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createWithContent(file, pid)) {
      return { file, release: () => (holderOf(file) === pid ? rmSync(file, { force: true }) : undefined) };
    }
    const holder = holderOf(file);
    // Stryker disable next-line ConditionalExpression: takeOverStale reads the holder again under its guard and leaves a live one's lock; the check only spares taking the guard
    if (heldByOther(holder, resolved)) throw new DataDirLockedError(dataDir, holder);
    takeOverStale(file, resolved);
  }
  throw new DataDirLockedError(dataDir, holderOf(file));
}
