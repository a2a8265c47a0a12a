import { describe, expect, it } from 'vitest';
import { hashSlots } from './hash-slots.ts';

/** A verification the test finishes by hand, at a time it sets. */
function pending() {
  let finish: (matches: boolean) => void = () => {};
  let fail: (error: Error) => void = () => {};
  const promise = new Promise<boolean>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { promise, finish, fail };
}

function modelOf(threads: number) {
  let now = 0;
  const observed: [wait: number, run: number][] = [];
  const slots = hashSlots({ threads, now: () => now, observe: (wait, run) => observed.push([wait, run]) });
  return { slots, observed, at: (seconds: number) => (now = seconds) };
}

describe("argon2's wait for a thread of libuv's pool", () => {
  it('starts at once while fewer than `threads` run; the third of two threads waits for the first to finish', async () => {
    const { slots, observed, at } = modelOf(2);
    const [a, b, c] = [pending(), pending(), pending()];
    const runs = [slots.measure(() => a.promise), slots.measure(() => b.promise)];
    at(1);
    runs.push(slots.measure(() => c.promise));
    expect(slots.waiting()).toBe(1);

    at(3);
    a.finish(true);
    await runs[0];
    expect(slots.waiting()).toBe(0);
    at(4);
    b.finish(false);
    c.finish(true);
    expect(await Promise.all(runs)).toEqual([true, false, true]);
    // a: no wait, ran 3 s; b: no wait, ran 4 s; c: queued at 1, started at 3 when a finished, done at 4.
    expect(observed).toEqual([
      [0, 3],
      [0, 4],
      [2, 1],
    ]);
  });

  it('hands the thread on when a verification fails, and passes the failure on', async () => {
    const { slots, observed, at } = modelOf(1);
    const [a, b] = [pending(), pending()];
    const first = slots.measure(() => a.promise);
    const second = slots.measure(() => b.promise);
    at(2);
    a.fail(new Error('malformed hash'));
    await expect(first).rejects.toThrow('malformed hash');
    at(5);
    b.finish(true);
    expect(await second).toBe(true);
    expect(observed).toEqual([
      [0, 2],
      [2, 3],
    ]);
  });

  it('a queued verification done before its turn leaves the line without taking a thread', async () => {
    const { slots, observed, at } = modelOf(1);
    const [a, b, c] = [pending(), pending(), pending()];
    const first = slots.measure(() => a.promise);
    const second = slots.measure(() => b.promise);
    const third = slots.measure(() => c.promise);
    at(1);
    b.finish(false);
    await second;
    expect(slots.waiting()).toBe(1);
    at(2);
    a.finish(true);
    await first;
    at(4);
    c.finish(true);
    await third;
    expect(observed).toEqual([
      [1, 0],
      [0, 2],
      [2, 2],
    ]);
  });
});
