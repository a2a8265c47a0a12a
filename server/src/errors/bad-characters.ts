import { isPlainText } from '@keycard/contract';

/** A key that itself holds a bad character, written with its code units escaped so the answer can name it. */
function nameOf(key: string): string {
  return isPlainText(key)
    ? key
    : [...key]
        .map((char) => (isPlainText(char) ? char : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`))
        .join('');
}

/**
 * Where in a parsed input (a JSON body, a query, a form) the first string holding a control character
 * or an unpaired surrogate sits (contract rules/plain-text.ts): the path to it, a key's own name if the
 * key is at fault, or undefined when every key and string is plain text. This runs before any schema,
 * so no field a schema leaves loose (a JWK's members, a provider's extra callback parameters) can carry
 * such a value to a rule or the database.
 */
export function badCharacterPath(
  value: unknown,
  path: readonly PropertyKey[] = [],
): PropertyKey[] | undefined {
  if (typeof value === 'string') return isPlainText(value) ? undefined : [...path];
  if (typeof value !== 'object' || value === null) return undefined;
  const entries: [PropertyKey, unknown][] = Array.isArray(value)
    ? [...value.entries()]
    : Object.entries(value);
  for (const [key, item] of entries) {
    if (typeof key === 'string' && !isPlainText(key)) return [...path, nameOf(key)];
    const found = badCharacterPath(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}
