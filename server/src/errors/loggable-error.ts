/**
 * Errors as they may appear in the log (DESIGN §2 Audit log: never passwords, codes or session ids).
 * A failed statement's error carries the statement's parameters: the query layer puts them in its
 * message ("Failed query: … params: …") and in a `params` field, and the provider looks sessions,
 * interactions, authorization codes and refresh tokens up by their raw value, so a query that fails
 * in an outage would write a live token into the log. PostgreSQL's own error adds a `detail` naming a
 * conflicting key's value (an address). These helpers keep the statement, the SQLSTATE and the
 * driver's reason, and drop the values.
 */

/** An error of the query layer: the statement, its parameters, and the driver's error as the cause. */
interface QueryError extends Error {
  readonly query: string;
  readonly params: unknown[];
}

function isQueryError(error: Error): error is QueryError {
  const fields = error as Partial<QueryError>;
  return typeof fields.query === 'string' && Array.isArray(fields.params);
}

/** Fields of a driver's error whose text may hold a row's or a parameter's value. */
const VALUE_FIELDS = new Set(['query', 'params', 'detail', 'where', 'internalQuery', 'hint']);

/** SQLSTATE class 22, data exception: PostgreSQL's message quotes the value it could not take. */
const QUOTES_VALUE = /^22/;

/** How deep causes are followed: the query layer's error, the driver's, and one more. */
const MAX_CAUSES = 3;

function sqlState(error: Error): string | undefined {
  const { code } = error as { code?: unknown };
  return typeof code === 'string' ? code : undefined;
}

/** The error's own message, without any value it may carry. */
function ownMessage(error: Error): string {
  if (isQueryError(error)) return `Failed query: ${error.query}`;
  const state = sqlState(error);
  if (state !== undefined && QUOTES_VALUE.test(state)) return `data exception ${state}`;
  return error.message;
}

/**
 * One line for a log field: the message without values, and those of its causes (a failed query's
 * statement, then the driver's reason).
 */
export function loggableMessage(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSES && current !== undefined; depth++) {
    parts.push(current instanceof Error ? ownMessage(current) : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ');
}

/** The stack's frames under a first line of the error's loggable message (the original repeats it). */
function loggableStack(error: Error, type: string): string {
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return [`${type}: ${ownMessage(error)}`, ...frames].join('\n');
}

/** An error as the log shows it. */
export interface LoggedError {
  readonly [field: string]: unknown;
  readonly type: string;
  readonly message: string;
  readonly stack: string;
}

function serialize(error: Error, depth: number): LoggedError {
  const type = error.constructor?.name ?? error.name;
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (VALUE_FIELDS.has(key) || key === 'cause') continue;
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  const cause =
    error.cause instanceof Error && depth + 1 < MAX_CAUSES ? serialize(error.cause, depth + 1) : undefined;
  return {
    ...fields,
    type,
    message: ownMessage(error),
    stack: loggableStack(error, type),
    ...(cause ? { cause } : {}),
  };
}

/**
 * The logger's `err` serializer (pino): type, message, stack, the driver's plain fields (SQLSTATE,
 * constraint, table) and the cause, each without values.
 */
export function loggableError(error: Error): LoggedError {
  // pino hands over whatever was logged as `err`, which is not always an Error.
  if (!(error instanceof Error)) return { type: typeof error, message: String(error), stack: '' };
  return serialize(error, 0);
}
