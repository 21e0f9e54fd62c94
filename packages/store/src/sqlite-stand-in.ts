// A stand-in for better-sqlite3's native addon that holds nothing: every statement runs, finds no row
// and changes one, and the schema reads as current. The hook's start-up snapshot is built where no
// native addon can load; a SqliteStore opened over this stand-in lets its warm-up run the store's
// own code (opening, the statements, the append's chain, facts and rollups), so V8 compiles that code
// into the snapshot rather than in every hook process. Nothing here is ever a store anyone reads.
import { SQLITE_SCHEMA_VERSION } from './sqlite-open.js';
import { SqliteStore } from './sqlite-store.js';

class StandInStatement {
  #plucked = false;
  constructor(readonly source: string) {}
  run(): { changes: number; lastInsertRowid: number } {
    return { changes: 1, lastInsertRowid: 0 };
  }
  get(): unknown {
    // openSqlite compares the schema version before anything else; "current" means no migration.
    return this.#plucked && /^PRAGMA user_version$/.test(this.source) ? SQLITE_SCHEMA_VERSION : undefined;
  }
  all(): unknown[] {
    return [];
  }
  iterate(): IterableIterator<unknown> {
    return [][Symbol.iterator]();
  }
  pluck(toggle = true): this {
    this.#plucked = toggle;
    return this;
  }
  raw(): this {
    return this;
  }
  expand(): this {
    return this;
  }
  safeIntegers(): this {
    return this;
  }
  bind(): this {
    return this;
  }
  columns(): unknown[] {
    return [];
  }
}

class StandInDatabase {
  open = true;
  inTransaction = false;
  readonly = false;
  memory = true;
  constructor(readonly name: string) {}
  prepare(source: string): StandInStatement {
    return new StandInStatement(source);
  }
  exec(): void {}
  close(): void {
    this.open = false;
  }
  defaultSafeIntegers(): void {}
  unsafeMode(): void {}
}

function standInAddon(): object {
  return { Database: StandInDatabase, setErrorConstructor: () => undefined };
}

/** A SqliteStore over the stand-in: for warming the store's code, never for keeping anything. */
export function standInSqliteStore(): Promise<SqliteStore> {
  return SqliteStore.open(':memory:', { nativeBinding: standInAddon() });
}
