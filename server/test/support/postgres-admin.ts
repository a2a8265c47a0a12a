import pg from 'pg';

/** Connects one client to `url`, runs `use` with it and ends it (an error ending it is not one of `use`'s). */
export async function withPostgresClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs one statement on the server's own database; CREATE/DROP DATABASE cannot run in a pool transaction. */
export async function administer(serverUrl: string, statement: string): Promise<void> {
  await withPostgresClient(serverUrl, (client) => client.query(statement));
}

/** Drops database `name` on the server, ending the sessions still on it. */
export function dropDatabase(serverUrl: string, name: string): Promise<void> {
  return administer(serverUrl, `drop database if exists ${name} with (force)`);
}

/** The connection URL of another database on the same server. */
export function databaseUrlOn(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}
