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

/** How deep causes are followed: the query layer's error (which may wrap itself once), the driver's, one more. */
const MAX_CAUSES = 4;

function sqlState(error: Error): string | undefined {
  const { code } = error as { code?: unknown };
  return typeof code === 'string' ? code : undefined;
}

/** The error's own message, without any value it may carry. */
function ownMessage(error: Error): string {
  // The query layer's own error says the statement and its values; a driver's error that carries
  // the statement as fields (PGlite's) says only its reason.
  if (isQueryError(error) && error.message.startsWith('Failed query')) return `Failed query: ${error.query}`;
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
    const part = current instanceof Error ? ownMessage(current) : textOf(current);
    // The query layer may wrap its own error once more: the statement is said once.
    if (parts.at(-1) !== part) parts.push(part);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ');
}

/** The innermost reason alone (the driver's, under the query layer's), without values. */
export function loggableReason(error: unknown): string {
  let current: unknown = error;
  // Bounded: a cause may lead back to an error already passed.
  for (
    let depth = 0;
    depth < MAX_CAUSES && current instanceof Error && current.cause !== undefined;
    depth++
  ) {
    current = current.cause;
  }
  return current instanceof Error ? ownMessage(current) : textOf(current);
}

/**
 * An error for a report on stderr (the service could not start or stop): its loggable message with
 * its causes' (loggableMessage), then its stack's frames.
 */
export function loggableReport(error: unknown): string {
  if (!(error instanceof Error)) return loggableMessage(error);
  const frames = loggableStack(error, '').split('\n').slice(1);
  return [loggableMessage(error), ...frames].join('\n');
}

/** What is no Error, as text: a string or number as it is, anything else by its kind only. */
function textOf(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return value === null ? 'null' : `[${typeof value}]`;
}

/** The stack's frames under a first line of the error's loggable message (the original repeats it). */
function loggableStack(error: Error, type: string): string {
  const stack = typeof error.stack === 'string' ? error.stack : '';
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  return [`${type}: ${ownMessage(error)}`, ...frames].join('\n');
}

/** An error as the log shows it. */
export interface LoggedError {
  readonly [field: string]: unknown;
  readonly type: string;
  readonly message: string;
  readonly stack: string;
}

/** Errors of an AggregateError shown at most (a connection tried on each address of a name). */
const MAX_AGGREGATED = 5;

function serialize(error: Error, depth: number): LoggedError {
  const type = error.constructor?.name ?? error.name;
  const fields: Record<string, unknown> = {};
  try {
    for (const [key, value] of Object.entries(error)) {
      if (VALUE_FIELDS.has(key) || key === 'cause' || key === 'errors') continue;
      if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
    }
  } catch {
    // A field that throws when read (a getter) leaves the others out, not the error.
  }
  const deeper = depth + 1 < MAX_CAUSES;
  const cause = error.cause instanceof Error && deeper ? describedOrNot(error.cause, depth + 1) : undefined;
  const aggregated =
    error instanceof AggregateError && deeper
      ? error.errors
          .slice(0, MAX_AGGREGATED)
          .map((each: unknown) => (each instanceof Error ? serialize(each, depth + 1) : textOf(each)))
      : undefined;
  return {
    ...fields,
    type,
    message: ownMessage(error),
    stack: loggableStack(error, type),
    ...(cause ? { cause } : {}),
    ...(aggregated ? { aggregateErrors: aggregated } : {}),
  };
}

/** A cause described, or left out when describing it threw: the error above is still described. */
function describedOrNot(error: Error, depth: number): LoggedError | undefined {
  try {
    return serialize(error, depth);
  } catch {
    return undefined;
  }
}

/**
 * The logger's `err` serializer (pino): type, message, stack, the driver's plain fields (SQLSTATE,
 * constraint, table) and the cause, each without values.
 */
export function loggableError(error: Error): LoggedError {
  // pino hands over whatever was logged as `err`, which is not always an Error.
  if (!(error instanceof Error)) return { type: typeof error, message: textOf(error), stack: '' };
  try {
    return serialize(error, 0);
  } catch {
    // A getter that throws, an odd stack: the log line is written all the same.
    return { type: 'Error', message: 'an error that could not be described', stack: '' };
  }
}
