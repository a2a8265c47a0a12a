import type { z } from 'zod';

/**
 * The closed set of ways an admin operation can refuse. The CLI maps them to exit codes, the admin
 * HTTP API to 400 / 404 / 409.
 */
export const ADMIN_ERROR_CODES = ['invalid_input', 'not_found', 'conflict'] as const;
export type AdminErrorCode = (typeof ADMIN_ERROR_CODES)[number];

export interface AdminError {
  readonly code: AdminErrorCode;
  /** One line for a person; never contains a password or secret. */
  readonly message: string;
  /** The input field at fault, for invalid_input (e.g. "email"). */
  readonly field?: string;
}

export type AdminResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: AdminError };

export function ok<T>(value: T): AdminResult<T> {
  return { ok: true, value };
}

export function refuse(
  code: AdminErrorCode,
  message: string,
  field?: string,
): { ok: false; error: AdminError } {
  return { ok: false, error: field === undefined ? { code, message } : { code, message, field } };
}

export function noAccount(email: string): { ok: false; error: AdminError } {
  return refuse('not_found', `no account with the e-mail ${email.trim()}`);
}

/** Validates an operation's input; the first problem becomes invalid_input naming its field. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { ok: true; value: z.output<S> } | { ok: false; error: AdminError } {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const [issue] = parsed.error.issues;
  const field = issue?.path.length ? String(issue.path[0]) : undefined;
  return refuse('invalid_input', issue?.message ?? 'invalid input', field);
}
