/**
 * The floor's one table, on the same kind of store as the service under comparison: PGlite in a data
 * directory (the embedded default) or a PostgreSQL pool. Plain SQL through the driver, nothing else.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface FloorStore {
  query<Row>(sql: string, params: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

const TABLE = `create table if not exists floor_payload (
  model text not null,
  id text not null,
  payload jsonb not null,
  uid text,
  grant_id text,
  consumed_at timestamptz,
  expires_at timestamptz,
  primary key (model, id)
);
create index if not exists floor_payload_uid on floor_payload (model, uid);
create index if not exists floor_payload_grant on floor_payload (grant_id);`;

export async function openFloorStore(
  location: { databaseUrl: string } | { dataDir: string },
): Promise<FloorStore> {
  if ('databaseUrl' in location) {
    const pool = new pg.Pool({ connectionString: location.databaseUrl, max: 10 });
    await pool.query(TABLE);
    return {
      query: async <Row>(sql: string, params: unknown[]) => (await pool.query(sql, params)).rows as Row[],
      close: () => pool.end(),
    };
  }
  const client = await PGlite.create(location.dataDir);
  await client.exec(TABLE);
  return {
    query: async <Row>(sql: string, params: unknown[]) => (await client.query<Row>(sql, params)).rows,
    close: () => client.close(),
  };
}
