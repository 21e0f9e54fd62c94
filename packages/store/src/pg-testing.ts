// PostgreSQL test helpers: the server URL (TOLLGATE_PG_URL, default the local trust-auth server) and
// throwaway schemas, so every test file (and every conformance test) gets its own empty tables.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_URL = process.env.TOLLGATE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export function freshSchemaName(prefix = 'tg_test'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** A plain client whose search_path is the schema, for raw SQL beside the store. */
export async function sideClient(schema: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await client.connect();
  return client;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
