import '../../test-support/dom.ts';
import { describe, expect, it, vi } from 'vitest';
import { meter, renderMeter } from './strength-test-kit.tsx';

// The estimator's chunk cannot be loaded (offline, or a new deployment replaced it): its `import()`
// fails, as a browser's does.
vi.mock('./strength-estimator.ts', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

describe('the strength estimate when its estimator cannot load', () => {
  it('keeps no place for an estimate that cannot come: the meter is empty, not a hidden stand-in', async () => {
    const { user, field } = renderMeter();
    await user.type(field, 'Violet-Harbour-Lantern-93');
    await vi.waitFor(() => expect([...meter().classList]).toEqual(['strength']));
    expect(meter().textContent).toBe('');
    expect(meter().childElementCount).toBe(0);
    expect(field).toHaveProperty('value', 'Violet-Harbour-Lantern-93');
  });
});
