// Public surface of @tollgate/store. Any new export here becomes public API.

// The report columns an append derives from a row, in insert order: for tools that seed the tables
// in bulk (the report bench) with exactly what appends write.
export { auditFacts, FACT_COLUMNS } from './audit-facts.js';
// The day rollups' rebuild from the facts (what migration 0013 runs), for the same bulk loaders.
export { ROLLUP_REBUILD_SQL } from './audit-rollup.js';
export { StoreFault, type StoreFaultCode, storeFaultMeanings } from './fault.js';
export type { MigrationOutcome } from './migrate.js';
export { isPostgresTarget, openStore } from './open-store.js';
export type { PostgresOptions } from './pg-open.js';
export { PostgresStore } from './pg-store.js';
export { DEFAULT_SQLITE_PATH, locateSqliteAddon, type SqliteOptions } from './sqlite-open.js';
export { standInSqliteStore } from './sqlite-stand-in.js';
export { SqliteStore } from './sqlite-store.js';
