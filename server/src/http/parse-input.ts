import type { z } from 'zod';
import { HttpError } from './http-error.ts';

/** Which part of the request a schema describes; named as the field when the whole part is wrong. */
export type InputPart = 'body' | 'query' | 'params';

function fieldOf(issue: z.core.$ZodIssue | undefined, part: InputPart): string {
  if (issue === undefined) return part;
  // An unknown property has the object as its path; the property itself is the offending field.
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  const dotted = path
    .map(String)
    .filter((segment) => segment !== '')
    .join('.');
  return dotted === '' ? part : dotted;
}

/**
 * Validates request input against its contract schema (DESIGN §2 Bad input): the parsed value, or a
 * 400 `bad_request` naming the first offending field as a dotted path.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, part: InputPart): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = fieldOf(issue, part);
  throw new HttpError('bad_request', `Invalid ${field}: ${issue?.message ?? 'malformed'}`, field);
}
