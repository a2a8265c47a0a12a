import { describe, expect, it } from 'vitest';
import { isHttpUrl } from './link-targets.ts';
import { readProduct } from './query.ts';

describe('readProduct, blank values', () => {
  it("keeps the product's own name when the parameter holds only spaces", () => {
    expect(readProduct('/resume?product=%20%20', 'GuestGate')).toBe('GuestGate');
    expect(readProduct('/resume?product=+', 'GuestGate')).toBe('GuestGate');
  });

  it('reads a query string that starts the ReturnUrl, and nothing from a ReturnUrl without one', () => {
    expect(readProduct('?product=Planner', 'GuestGate')).toBe('Planner');
    expect(readProduct('product=Planner', 'GuestGate')).toBe('GuestGate');
  });
});

describe('isHttpUrl', () => {
  it('answers false, not just something falsy, for what is no URL at all', () => {
    expect(isHttpUrl('not a url')).toBe(false);
    expect(isHttpUrl('/relative/path')).toBe(false);
    expect(isHttpUrl('https://app.example/')).toBe(true);
  });
});
