import type { AdapterPayload } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { ClientCache } from './client-cache.ts';

/** A client's registration as the database would answer it, and a count of how often it was asked. */
function registry(initial: Record<string, AdapterPayload> = {}) {
  const rows = new Map(Object.entries(initial));
  const reads: string[] = [];
  return {
    rows,
    reads,
    load: (id: string) => async () => {
      reads.push(id);
      const row = rows.get(id);
      return row && structuredClone(row);
    },
  };
}

const planner = (redirect: string): AdapterPayload => ({ client_id: 'planner', redirect_uris: [redirect] });

/** A cache on a clock the test moves, already listening (enabled). */
function enabledCache() {
  let now = 1_000;
  const cache = new ClientCache(() => now);
  cache.enable();
  return { cache, advance: (ms: number) => (now += ms) };
}

describe('the client cache (oidc/client-cache.ts)', () => {
  it('answers a client read once from memory until it changes, each caller with its own copy', async () => {
    const { cache } = enabledCache();
    const db = registry({ planner: planner('https://a.example/cb') });
    const spoil = (answer: AdapterPayload | undefined) =>
      (answer?.redirect_uris as string[] | undefined)?.push('https://evil.example/cb');
    // The answer of the read that filled the cache, then one from memory: each changed by its caller.
    spoil(await cache.read('planner', db.load('planner')));
    spoil(await cache.read('planner', db.load('planner')));
    expect(await cache.read('planner', db.load('planner'))).toEqual(planner('https://a.example/cb'));
    expect(db.reads).toEqual(['planner']);
  });

  it('reads a forgotten client again (a heard change, or one this process committed)', async () => {
    const { cache } = enabledCache();
    const db = registry({ planner: planner('https://a.example/cb') });
    await cache.read('planner', db.load('planner'));
    db.rows.set('planner', planner('https://b.example/cb'));
    cache.forget('planner');
    expect(await cache.read('planner', db.load('planner'))).toEqual(planner('https://b.example/cb'));
    expect(db.reads).toEqual(['planner', 'planner']);
  });

  it('does not keep what a read found when a change was heard while it was under way', async () => {
    const { cache } = enabledCache();
    const db = registry({ planner: planner('https://a.example/cb') });
    let finish: () => void = () => {};
    const slowLoad = async () => {
      const row = await db.load('planner')();
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      return row;
    };
    const underWay = cache.read('planner', slowLoad);
    await Promise.resolve();
    // The change commits and is announced after the read got the old row, before it returns.
    db.rows.set('planner', planner('https://b.example/cb'));
    cache.forget('planner');
    finish();
    expect(await underWay).toEqual(planner('https://a.example/cb'));
    expect(await cache.read('planner', db.load('planner'))).toEqual(planner('https://b.example/cb'));
  });

  it('keeps no unknown client: one registered a moment later is found at once', async () => {
    const { cache } = enabledCache();
    const db = registry();
    expect(await cache.read('planner', db.load('planner'))).toBeUndefined();
    db.rows.set('planner', planner('https://a.example/cb'));
    expect(await cache.read('planner', db.load('planner'))).toEqual(planner('https://a.example/cb'));
  });

  it('answers from memory for 30 seconds at most, however quiet the listener is', async () => {
    const { cache, advance } = enabledCache();
    const db = registry({ planner: planner('https://a.example/cb') });
    await cache.read('planner', db.load('planner'));
    advance(29_999);
    await cache.read('planner', db.load('planner'));
    expect(db.reads).toHaveLength(1);
    advance(1);
    await cache.read('planner', db.load('planner'));
    expect(db.reads).toHaveLength(2);
    // Expired and then removed from the database: nothing of it stays held.
    db.rows.delete('planner');
    advance(30_000);
    expect(await cache.read('planner', db.load('planner'))).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('reads every time while disabled, and drops what it held when the listener is lost', async () => {
    // On the process's own clock, as the service makes it.
    const cache = new ClientCache();
    const db = registry({ planner: planner('https://a.example/cb') });
    expect(cache.enabled).toBe(false);
    await cache.read('planner', db.load('planner'));
    await cache.read('planner', db.load('planner'));
    expect(db.reads).toHaveLength(2);
    cache.enable();
    expect(cache.enabled).toBe(true);
    await cache.read('planner', db.load('planner'));
    await cache.read('planner', db.load('planner'));
    expect(db.reads).toHaveLength(3);
    cache.disable();
    expect(cache.enabled).toBe(false);
    expect(cache.size).toBe(0);
    db.rows.set('planner', planner('https://b.example/cb'));
    expect(await cache.read('planner', db.load('planner'))).toEqual(planner('https://b.example/cb'));
    await cache.read('planner', db.load('planner'));
    expect(db.reads).toHaveLength(5);
    expect(cache.size).toBe(0);
  });

  it('does not keep a read that began before the listener was back', async () => {
    const cache = new ClientCache();
    const db = registry({ planner: planner('https://a.example/cb') });
    const underWay = cache.read('planner', db.load('planner'));
    cache.enable();
    await underWay;
    expect(cache.size).toBe(0);
  });

  it('forgets every client on a truncation', async () => {
    const { cache } = enabledCache();
    const db = registry({ planner: planner('https://a.example/cb'), reports: { client_id: 'reports' } });
    await cache.read('planner', db.load('planner'));
    await cache.read('reports', db.load('reports'));
    cache.forgetAll();
    expect(cache.size).toBe(0);
  });

  it('holds 1 000 clients at most, dropping the oldest', async () => {
    const { cache } = enabledCache();
    const ids = Array.from({ length: 1_001 }, (_, index) => `client-${index}`);
    const db = registry(Object.fromEntries(ids.map((id) => [id, { client_id: id }])));
    for (const id of ids.slice(0, 1_000)) await cache.read(id, db.load(id));
    expect(cache.size).toBe(1_000);
    await cache.read('client-1000', db.load('client-1000'));
    expect(cache.size).toBe(1_000);
    const readsBefore = db.reads.length;
    await cache.read('client-1', db.load('client-1'));
    expect(db.reads).toHaveLength(readsBefore);
    await cache.read('client-0', db.load('client-0'));
    expect(db.reads.slice(readsBefore)).toEqual(['client-0']);
  });
});
