// Runs the Store conformance suite against a real PostgreSQL server, each test in a fresh schema,
// then races two store instances (two pools, as two gate hosts would be) on one shared schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStoreConformance } from './conformance.js';
import { draft, prediction } from './fixtures.js';
import { PostgresStore } from './pg-store.js';
import { dropSchema, freshSchemaName, PG_URL, sideClient } from './pg-testing.js';

runStoreConformance('PostgreSQL', async () => {
  const schema = freshSchemaName();
  let store: PostgresStore;
  try {
    store = await PostgresStore.open(PG_URL, { schema });
  } catch (error) {
    await dropSchema(schema); // the schema may exist even though the store did not open
    throw error;
  }
  const side = await sideClient(schema);
  const exec = async (sql: string) => {
    await side.query(sql);
  };
  return {
    store,
    raw: exec,
    tamper: (sql) => exec(`DROP TRIGGER IF EXISTS audit_append_only ON audit; ${sql}`),
    dispose: async () => {
      await side.end();
      await store.close();
      await dropSchema(schema);
    },
  };
});

describe('PostgreSQL: gate instances sharing one database', () => {
  const schema = freshSchemaName();
  let a: PostgresStore;
  let b: PostgresStore;
  beforeAll(async () => {
    // Open both at once: concurrent migrations must serialise, not fail.
    [a, b] = await Promise.all([
      PostgresStore.open(PG_URL, { schema }),
      PostgresStore.open(PG_URL, { schema }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await dropSchema(schema);
  });

  it('lets exactly one instance consume a prediction', async () => {
    for (let round = 0; round < 10; round++) {
      const p = prediction('shared', `d${round}`, 1000);
      await a.insertPrediction(p);
      const wins = await Promise.all(
        Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).consumePrediction(p.id, 2000 + i)),
      );
      expect(wins.filter(Boolean)).toHaveLength(1);
    }
  });

  it('keeps one audit chain when both instances append at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).appendAudit([draft('shared')])),
    );
    const seqs = results.flat().map((r) => r.seq);
    expect(new Set(seqs).size).toBe(60);
    expect(await a.verifyAudit()).toEqual({ ok: true, rows: 60 });
    expect(await b.listAudit({ session: 'shared' })).toHaveLength(60);
  });
});
