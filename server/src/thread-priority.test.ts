import { describe, expect, it } from 'vitest';
import { lowerPoolPriority, type ThreadTable } from './thread-priority.ts';

/** A process's threads by id and name; `refuse` names the ids whose priority cannot be changed. */
function threadTable(names: Record<string, string>, refuse: readonly string[] = []) {
  const nice = new Map<string, number>();
  const table: ThreadTable = {
    ids: () => Object.keys(names),
    name: (id) => names[id],
    setNice(id, value) {
      if (refuse.includes(id)) throw new Error(`setpriority ${id}: EACCES`);
      nice.set(id, value);
    },
  };
  return { table, nice };
}

const THREADS = {
  '100': 'MainThread',
  '101': 'V8Worker',
  '102': 'WorkerThread',
  '103': 'libuv-worker',
  '104': 'libuv-worker',
  '105': 'libuv-worker',
  '106': 'libuv-worker',
};

describe('the thread pool below the serving threads', () => {
  it("lowers every thread of Node's pool to nice 10 and no other thread", async () => {
    const { table, nice } = threadTable(THREADS);
    expect(await lowerPoolPriority(table, 'linux')).toEqual({ lowered: 4 });
    expect(Object.fromEntries(nice)).toEqual({ '103': 10, '104': 10, '105': 10, '106': 10 });
  });

  it('lowers the others when one refuses, and says why', async () => {
    const { table, nice } = threadTable(THREADS, ['104']);
    expect(await lowerPoolPriority(table, 'linux')).toEqual({
      lowered: 3,
      problem: 'setpriority 104: EACCES',
    });
    expect([...nice.keys()]).toEqual(['103', '105', '106']);
  });

  it('says so when no thread of the pool is found, and when the threads cannot be listed', async () => {
    const { table } = threadTable({ '100': 'MainThread', '101': 'V8Worker' });
    expect(await lowerPoolPriority(table, 'linux')).toEqual({
      lowered: 0,
      problem: 'no thread named libuv-worker',
    });
    const unlisted: ThreadTable = {
      ...table,
      ids: () => {
        throw new Error('ENOENT: /proc/self/task');
      },
    };
    expect(await lowerPoolPriority(unlisted, 'linux')).toEqual({
      lowered: 0,
      problem: 'ENOENT: /proc/self/task',
    });
  });

  it('changes nothing outside Linux', async () => {
    const { table, nice } = threadTable(THREADS);
    expect(await lowerPoolPriority(table, 'darwin')).toEqual({ lowered: 0 });
    expect(nice.size).toBe(0);
  });
});
