import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';
import { type SpanOptions, traced } from '../tracing/spans.ts';

type Queries = Pick<PGlite, 'query' | 'exec'>;

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

function traceQueries(client: Queries): void {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  client.query = <T>(text: string, params?: unknown[], options?: QueryOptions) =>
    traced(...querySpan(text), () => query<T>(text, params, options));
  client.exec = (text: string, options?: QueryOptions) =>
    traced(...querySpan(text), () => exec(text, options));
}

/**
 * Spans for the embedded database's statements, which no instrumentation package covers: PGlite runs
 * in this process, so its queries are wrapped where drizzle calls them (the client and the client of
 * each transaction). Installed only while tracing is on.
 */
export function tracePgliteQueries(client: PGlite): void {
  traceQueries(client);
  const transaction = client.transaction.bind(client);
  client.transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    traced('pglite.transaction', { onlyWithinTrace: true }, () =>
      transaction((tx) => {
        traceQueries(tx);
        return callback(tx);
      }),
    );
}
