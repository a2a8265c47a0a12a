import { vi } from 'vitest';

/**
 * Waits for `check` in a test that fakes setTimeout. Testing Library's waitFor polls and drains with
 * setTimeout, so it would stall there; vi.waitFor with interval 0 polls without moving the fake clock.
 * While it waits, React is told what Testing Library's own waitFor tells it: the updates that come in
 * now (answers of stubbed calls) arrive outside act() on purpose, like a browser's.
 */
export async function settled(check: () => void): Promise<void> {
  const previous = globalThis.IS_REACT_ACT_ENVIRONMENT;
  globalThis.IS_REACT_ACT_ENVIRONMENT = false;
  try {
    await vi.waitFor(check, { interval: 0 });
  } finally {
    globalThis.IS_REACT_ACT_ENVIRONMENT = previous;
  }
}
