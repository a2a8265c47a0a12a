import { ERROR_REFERENCE_ALPHABET } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { newRequestId } from './request-id.ts';

describe('request ids', () => {
  // The random bytes are drawn for 256 ids at a time: 1000 ids span several draws.
  it('are 8 characters of Crockford base32, each one fresh, across several draws of random bytes', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(new Set(ids).size).toBe(1000);
    // Every character of the alphabet turns up, in the first place and the last alike.
    expect(new Set(ids.map((id) => id[0])).size).toBe(ERROR_REFERENCE_ALPHABET.length);
    expect(new Set(ids.map((id) => id[7])).size).toBe(ERROR_REFERENCE_ALPHABET.length);
  });
});
