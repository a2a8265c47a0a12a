import { type SpanOptions, traced } from '../tracing/spans.ts';
import type { PgliteClient, PgliteQueries, PgliteQueryOptions, PgliteTransaction } from './pglite-client.ts';

/**
 * A statement's span, as instrumentation-pg names PostgreSQL's (`pg.query:SELECT`): the statement
 * with its $1 … placeholders, never the values bound to them. Only within a trace, like those.
 */
function querySpan(text: string): [string, SpanOptions] {
  const operation = text.trimStart().split(/\s/, 1)[0]?.toUpperCase() ?? '';
  return [
    `pglite.query:${operation}`,
    {
      client: true,
      onlyWithinTrace: true,
      attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': text },
    },
  ];
}

function traceQueries(client: PgliteQueries): void {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  client.query = <T>(text: string, params?: unknown[], options?: PgliteQueryOptions) =>
    traced(...querySpan(text), () => query<T>(text, params, options));
  client.exec = (text: string) => traced(...querySpan(text), () => exec(text));
}

/**
 * Spans for the embedded database's statements, which no instrumentation package covers: they are
 * wrapped where drizzle calls them (the client and the client of each transaction), on this thread,
 * so they join the request's trace. Installed only while tracing is on.
 */
export function tracePgliteQueries(client: PgliteClient): void {
  traceQueries(client);
  const transaction = client.transaction.bind(client);
  client.transaction = <T>(callback: (tx: PgliteTransaction) => Promise<T>) =>
    traced('pglite.transaction', { onlyWithinTrace: true }, () =>
      transaction((tx) => {
        traceQueries(tx);
        return callback(tx);
      }),
    );
}
