// Public surface of @tollgate/store. Any new export here becomes public API.
export { StoreFault, type StoreFaultCode, storeFaultMeanings } from './fault.js';
export type { MigrationOutcome } from './migrate.js';
export { isPostgresTarget, openStore } from './open-store.js';
export type { PostgresOptions } from './pg-open.js';
export { PostgresStore } from './pg-store.js';
export { DEFAULT_SQLITE_PATH, type SqliteOptions } from './sqlite-open.js';
export { SqliteStore } from './sqlite-store.js';
