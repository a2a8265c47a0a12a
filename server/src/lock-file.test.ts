import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE_NAME } from './lock-file.ts';

describe('data directory lock', () => {
  let dataDir: string;
  let file: string;
  beforeEach(async () => {
    dataDir = path.join(await mkdtemp(path.join(tmpdir(), 'keycard-lock-')), 'data');
    file = path.join(dataDir, LOCK_FILE_NAME);
  });
  afterEach(() => rm(path.dirname(dataDir), { recursive: true, force: true }));

  it('creates the directory and a lock file holding the pid, removed on release', () => {
    const lock = acquireDataDirLock(dataDir, { pid: 4242 });
    expect(readFileSync(file, 'utf8').trim()).toBe('4242');
    lock.release();
    expect(existsSync(file)).toBe(false);
    lock.release();
  });

  it('refuses a second holder while the first runs, naming the directory and the pid', () => {
    acquireDataDirLock(dataDir, { pid: 4242 });
    const second = () => acquireDataDirLock(dataDir, { pid: 5353, isAlive: (pid) => pid === 4242 });
    expect(second).toThrow(DataDirLockedError);
    expect(second).toThrow(/pid 4242/);
    expect(second).toThrow(dataDir);
    expect(readFileSync(file, 'utf8').trim()).toBe('4242');
  });

  it('takes over the lock of a process that died', () => {
    acquireDataDirLock(dataDir, { pid: 4242 });
    const lock = acquireDataDirLock(dataDir, { pid: 5353, isAlive: () => false });
    expect(readFileSync(file, 'utf8').trim()).toBe('5353');
    lock.release();
  });

  it('takes over an unreadable lock and one carrying its own pid (container restart)', () => {
    acquireDataDirLock(dataDir, { pid: 1 });
    writeFileSync(file, 'garbage');
    expect(() => acquireDataDirLock(dataDir, { pid: 7, isAlive: () => true }).release()).not.toThrow();
    acquireDataDirLock(dataDir, { pid: 1 });
    expect(() => acquireDataDirLock(dataDir, { pid: 1, isAlive: () => true })).not.toThrow();
  });

  it('does not remove a lock another process took over after a stale release', () => {
    const stale = acquireDataDirLock(dataDir, { pid: 4242 });
    acquireDataDirLock(dataDir, { pid: 5353, isAlive: () => false });
    stale.release();
    expect(readFileSync(file, 'utf8').trim()).toBe('5353');
  });

  it('lets one of two processes taking over the same stale lock have it, never both', () => {
    acquireDataDirLock(dataDir, { pid: 4242 });
    let first: ReturnType<typeof acquireDataDirLock> | undefined;
    // 5353 finds the lock of the dead 4242; while it asks whether 4242 lives, 6464 takes the lock over.
    const isAlive = (pid: number) => {
      if (pid === 4242 && first === undefined) {
        first = acquireDataDirLock(dataDir, { pid: 6464, isAlive: (other) => other === 5353 });
      }
      return pid === 6464;
    };
    const second = () => acquireDataDirLock(dataDir, { pid: 5353, isAlive });
    expect(second).toThrow(DataDirLockedError);
    expect(second).toThrow(/pid 6464/);
    expect(first).toBeDefined();
    expect(readFileSync(file, 'utf8').trim()).toBe('6464');
    expect(readdirSync(dataDir)).toEqual([LOCK_FILE_NAME]);
  });

  it('takes the directory when the stale lock it found is removed by another process meanwhile', () => {
    acquireDataDirLock(dataDir, { pid: 4242 });
    const isAlive = (pid: number) => {
      if (pid === 4242) rmSync(file);
      return false;
    };
    const lock = acquireDataDirLock(dataDir, { pid: 5353, isAlive });
    expect(readFileSync(file, 'utf8').trim()).toBe('5353');
    lock.release();
  });

  it('waits while another process takes a stale lock over, and names the holder when that does not end', () => {
    acquireDataDirLock(dataDir, { pid: 4242 });
    mkdirSync(`${file}.takeover`);
    const started = performance.now();
    expect(() => acquireDataDirLock(dataDir, { pid: 5353, isAlive: () => false })).toThrow(/pid 4242/);
    // Three looks, 50 ms apart.
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(readFileSync(file, 'utf8').trim()).toBe('4242');
  });

  it('removes the guard of a takeover a crash left over 10 s ago, and takes the stale lock over', () => {
    acquireDataDirLock(dataDir, { pid: 4242 });
    const guard = `${file}.takeover`;
    mkdirSync(guard);
    const elevenSecondsAgo = new Date(Date.now() - 11_000);
    utimesSync(guard, elevenSecondsAgo, elevenSecondsAgo);
    const lock = acquireDataDirLock(dataDir, { pid: 5353, isAlive: () => false });
    expect(readFileSync(file, 'utf8').trim()).toBe('5353');
    expect(readdirSync(dataDir)).toEqual([LOCK_FILE_NAME]);
    lock.release();
  });

  it('lets a third process wait while one takes the lock over, so it never removes the new lock', () => {
    acquireDataDirLock(dataDir, { pid: 4242 });
    let third: unknown;
    // 5353 holds the guard and reads the lock again; meanwhile 7474 starts and finds the stale lock.
    const isAlive = (pid: number) => {
      if (pid === 4242 && existsSync(`${file}.takeover`) && third === undefined) {
        try {
          acquireDataDirLock(dataDir, { pid: 7474, isAlive: (other) => other === 5353 });
          third = 'took it';
        } catch (error) {
          third = error;
        }
      }
      return false;
    };
    const lock = acquireDataDirLock(dataDir, { pid: 5353, isAlive });
    expect(third).toBeInstanceOf(DataDirLockedError);
    expect(readFileSync(file, 'utf8').trim()).toBe('5353');
    lock.release();
  });

  it("makes a new data directory for the service's user alone (0700)", () => {
    acquireDataDirLock(dataDir, { pid: 4242 });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('treats this very process as alive by default', () => {
    acquireDataDirLock(dataDir, { pid: process.pid });
    expect(() => acquireDataDirLock(dataDir, { pid: process.pid + 1 })).toThrow(DataDirLockedError);
  });
});
