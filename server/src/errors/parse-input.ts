import { BAD_CHARACTER_MESSAGE } from '@keycard/contract';
import type { z } from 'zod';
import { badCharacterPath } from './bad-characters.ts';
import { InputError } from './input-error.ts';

/** Which part of an HTTP request a schema describes; named as the field when the whole part is wrong. */
export type InputPart = 'body' | 'query' | 'params';

/** The issue's path; an unknown property has the object as its path, so the property is appended. */
function pathOf(issue: z.core.$ZodIssue): PropertyKey[] {
  return issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
}

function dotted(path: readonly PropertyKey[]): string {
  return path
    .map(String)
    .filter((segment) => segment !== '')
    .join('.');
}

function refusal(issue: z.core.$ZodIssue | undefined, part: InputPart | undefined): InputError {
  const reason = issue?.message ?? (part === undefined ? 'invalid input' : 'malformed');
  if (part === undefined) {
    // An operation's input: its top-level field, which the CLI's flags and the API's bodies name.
    const field = issue?.path.length ? String(issue.path[0]) : undefined;
    return new InputError(reason, field, issue?.path ?? []);
  }
  // A request part: the dotted path, down to the element of a list (e.g. redirectUris.0).
  const field = (issue && dotted(pathOf(issue))) || part;
  return new InputError(`Invalid ${field}: ${reason}`, field, issue ? pathOf(issue) : [part]);
}

/**
 * The one input parser of every door and operation: the schema's output, or an InputError naming
 * the first offending field. `part` is given for a part of an HTTP request, left out for the input
 * of an operation (provisioning), which names the top-level field and says only what is wrong.
 * A control character or unpaired surrogate anywhere in the input is refused first (DESIGN §2 Bad
 * input), whether or not the schema looks at that field.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, part?: InputPart): z.output<S> {
  const badPath = badCharacterPath(value);
  if (badPath)
    throw refusal({ code: 'custom', message: BAD_CHARACTER_MESSAGE, path: badPath, input: undefined }, part);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw refusal(result.error.issues[0], part);
}
