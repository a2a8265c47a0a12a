import { z } from 'zod';
import { BAD_CHARACTER_MESSAGE, isPlainText } from '../rules/plain-text.ts';

/**
 * The string schema of every input field: a string without control characters or unpaired surrogates
 * (rules/plain-text.ts). The refusal comes first, so a field holding a NUL is refused for that, whatever
 * else is wrong with it.
 */
export function plainText(params?: Parameters<typeof z.string>[0]): z.ZodString {
  return z.string(params).refine(isPlainText, BAD_CHARACTER_MESSAGE);
}
