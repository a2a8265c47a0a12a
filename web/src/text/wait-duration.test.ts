import { describe, expect, it } from 'vitest';
import { waitDuration } from './wait-duration.ts';

describe('waitDuration', () => {
  it.each([
    [0, 'en', '1 second'],
    [1, 'en', '1 second'],
    [45, 'en', '45 seconds'],
    [59, 'en', '59 seconds'],
    [60, 'en', '1 minute'],
    [61, 'en', '2 minutes'],
    [45, 'de', '45 Sekunden'],
    [60, 'de', '1 Minute'],
    [150, 'de', '3 Minuten'],
  ] as const)('reads %i s in %s as "%s"', (seconds, language, text) => {
    expect(waitDuration(seconds, language)).toBe(text);
  });
});
