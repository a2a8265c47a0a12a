import { TEXT_KEYS, type TextResource } from '@keycard/contract';

/**
 * Checks the start-up text resource against the contract's key list: every key a non-empty string
 * (what `textResourceSchema` demands, minus zod, which start-up does not load). Extra keys are ignored.
 */
export function toTextResource(json: unknown): TextResource | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const record = json as Record<string, unknown>;
  const complete = TEXT_KEYS.every((key) => typeof record[key] === 'string' && record[key] !== '');
  return complete ? (record as TextResource) : undefined;
}
