import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A PostgreSQL database created for one e2e run and dropped after it. */
export interface ScratchDatabase {
  /** Connection string of the new database, handed to the service as DATABASE_URL. */
  readonly url: string;
  drop(): Promise<void>;
}

/** Runs one statement on the server of `serverUrl`, through its own database or the `postgres` one. */
async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  try {
    await client.connect();
  } catch (error) {
    // 3D000: the database named in the URL does not exist; any server has the `postgres` database.
    if ((error as { code?: string }).code !== '3D000') throw error;
    const fallback = new URL(serverUrl);
    fallback.pathname = '/postgres';
    return onServer(fallback.toString(), sql);
  }
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates `keycard_e2e_<random>` on the server `serverUrl` points at, so the journeys never share
 * rows with another run or with the API tests.
 */
export async function createScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const name = `keycard_e2e_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE ends connections the stopped service may have left behind (PostgreSQL 13+).
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
