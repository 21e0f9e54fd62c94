// SQL command-line clients, read the way each program reads its argv: where its statements come
// from (`-c SQL` and `-Xc SQL` clusters, `--command=SQL`, abbreviations, `-f FILE`, positional SQL
// after a database file, `-init`/`--init-command`, a heredoc, a here-string, piped text, `< FILE`),
// in which dialect, and with which client's meta-commands. Files are read at decision time through
// the parse's FileView; SQL that cannot be known (an unreadable file, program output piped in, a
// variable where SQL or an option may stand, a file on another host) is `unknown`, and gated.
import type { Extractor, Invocation } from './extract.js';
import { type OptionModel, optionModel, parseOptions } from './option-model.js';
import { own } from './own.js';
import {
  analyseSql,
  type MetaSyntax,
  mergeFacts,
  type SqlDialect,
  type SqlFacts,
  sqlFacts,
  UNKNOWN_SQL,
} from './sql.js';

interface Client {
  model: OptionModel;
  /** Long options are single words with one or two dashes, never clusters (sqlite3, duckdb, sqlcmd). */
  singleDash?: boolean;
  dialect?: SqlDialect;
  meta: MetaSyntax;
  /** Canonical options whose value is SQL run instead of stdin. */
  sql: string[];
  /** Canonical options whose value is SQL run before stdin or the other statements. */
  initSql?: string[];
  /** Canonical options whose value names a file of SQL run instead of stdin. */
  files: string[];
  /** Canonical options whose value names a file of SQL run first. */
  initFiles?: string[];
  /** Option files that may hold `init-command` (mysql --defaults-file). */
  defaultsFiles?: string[];
  /** Canonical options whose value is a program the client runs. */
  programs?: string[];
  /** Canonical options whose value is a file, or a program the output is piped to when it starts with `|`. */
  pipes?: string[];
  /** Positionals after the first (a database file) are statements (sqlite3, duckdb); 'all': every one (clickhouse). */
  positionalSql?: boolean | 'all';
}

const PSQL: Client = {
  model: optionModel(
    'c|command= d|dbname= f|file= v|set|variable= V|version X|no-psqlrc 1|single-transaction ?|help? ' +
      'a|echo-all b|echo-errors e|echo-queries E|echo-hidden L|log-file= n|no-readline o|output= q|quiet ' +
      's|single-step S|single-line A|no-align csv F|field-separator= H|html P|pset= R|record-separator= ' +
      't|tuples-only T|table-attr= x|expanded z|field-separator-zero 0|record-separator-zero h|host= ' +
      'p|port= U|username= w|no-password W|password l|list',
  ),
  dialect: 'postgres',
  meta: 'psql',
  sql: ['--command'],
  files: ['--file'],
  pipes: ['--output'],
};

const MYSQL: Client = {
  model: optionModel(
    'e|execute= h|host= P|port= u|user= D|database= S|socket= p|password? init-command= init-command-add= ' +
      'A|no-auto-rehash auto-rehash B|batch b|no-beep C|compress c|comments skip-comments column-names ' +
      'N|skip-column-names column-type-info debug-check T|debug-info default-auth= default-character-set= ' +
      'defaults-extra-file= defaults-file= defaults-group-suffix= delimiter= E|vertical f|force ' +
      'G|named-commands H|html i|ignore-spaces j|syslog line-numbers skip-line-numbers n|unbuffered ' +
      'o|one-database pager? plugin-dir= protocol= q|quick r|raw reconnect U|safe-updates|i-am-a-dummy ' +
      's|silent show-warnings sigint-ignore ssl-ca= ssl-cert= ssl-key= ssl-mode= t|table tee= no-tee ' +
      'binary-mode connect-timeout= max-allowed-packet= net-buffer-length= select-limit= max-join-size= ' +
      'v|verbose V|version w|wait X|xml ?|I|help #|debug? login-path= local-infile? load-data-local-dir= ' +
      'print-defaults no-defaults system-command binary-as-hex',
  ),
  dialect: 'mysql',
  meta: 'mysql',
  sql: ['--execute'],
  initSql: ['--init-command', '--init-command-add'],
  files: [],
  defaultsFiles: ['--defaults-file', '--defaults-extra-file'],
  programs: ['--pager'],
};

const SQLITE: Client = {
  model: optionModel(
    'A= append ascii bail batch box column cmd= csv deserialize echo init= header noheader help html ' +
      'interactive json line list lookaside= markdown maxsize= memtrace mmap= newline= nofollow nonce= ' +
      'nullvalue= pagecache= pcachetrace quote readonly safe separator= stats table tabs unsafe-testing ' +
      'version vfs= zip escape= utf8 no-rowid-in-view heap=',
  ),
  singleDash: true,
  dialect: 'sqlite',
  meta: 'sqlite',
  sql: [],
  initSql: ['--cmd'],
  files: [],
  initFiles: ['--init'],
  positionalSql: true,
};

const DUCKDB: Client = {
  model: optionModel(
    'c= s= cmd= f= init= readonly json csv line list box column html markdown table ascii bail echo header ' +
      'noheader nullvalue= separator= newline= no-stdin storage-version= ui version help unsigned safe batch ' +
      'interactive quote tabs',
  ),
  singleDash: true,
  dialect: 'postgres',
  meta: 'sqlite',
  sql: ['-c', '-s'],
  initSql: ['--cmd'],
  files: ['-f'],
  initFiles: ['--init'],
  positionalSql: true,
};

const CLICKHOUSE: Client = {
  model: optionModel(
    'q|query= n multiquery? h|host= port= u|user= password= d|database= f|format= queries-file= m|multiline ' +
      't|time s|secure C|config-file|config= E|vertical V|version help progress? echo',
  ),
  dialect: 'clickhouse',
  meta: 'none',
  sql: ['--query', '--multiquery'],
  files: ['--queries-file'],
  // `clickhouse-client 'SELECT 1'`: a positional is the query.
  positionalSql: 'all',
};

const COCKROACH: Client = {
  model: optionModel(
    'e|execute= f|file= url= host= port= d|database= u|user= certs-dir= insecure format= set= echo-sql ' +
      'watch= safe-updates read-only embedded debug-sql-cli no-line-editor cluster-name=',
  ),
  dialect: 'postgres',
  meta: 'psql',
  sql: ['--execute'],
  files: ['--file'],
};

const USQL: Client = {
  model: optionModel(
    'c|command= f|file= o|out= W|password w|no-password X|no-init J|json C|csv v|set|variable= N|cset= ' +
      'P|pset= F|field-separator= R|record-separator= T|table-attr= A|no-align H|html q|quiet S|single-line ' +
      'x|expanded z|field-separator-zero 0|record-separator-zero 1|single-transaction V|version ?|help config= t|tuples-only',
  ),
  meta: 'psql',
  sql: ['--command'],
  files: ['--file'],
  pipes: ['--output'],
};

const SQLCMD: Client = {
  model: optionModel(
    'Q= q= i= S= d= U= P= o= v= E C b h= s= W e I x X? H= l= t= w= y= Y= a= A c= f= k? L? m= N? r? u z= Z= G K= M= j p?',
  ),
  meta: 'none',
  sql: ['-Q', '-q'],
  files: ['-i'],
};

const SNOWSQL: Client = {
  model: optionModel(
    'q|query= f|filename= a|accountname= u|username= d|dbname= s|schemaname= w|warehouse= r|rolename= ' +
      'c|connection= o|option= D|variable= h|host= p|port= region= authenticator= config= private-key-path= ' +
      'x|noup v|version help',
  ),
  meta: 'none',
  sql: ['--query'],
  files: ['--filename'],
};

const CQLSH: Client = {
  model: optionModel(
    'e|execute= f|file= u|username= p|password= k|keyspace= C|color no-color browser= ssl debug coverage ' +
      'encoding= cqlshrc= cqlversion= protocol-version= t|tty connect-timeout= request-timeout= secure-connect-bundle|b= ' +
      'no-file-io disable-history version help',
  ),
  meta: 'none',
  sql: ['--execute'],
  files: ['--file'],
};

const TRINO: Client = {
  model: optionModel(
    'execute= f|file= server= catalog= schema= user= password output-format= session= source= client-tags= ' +
      'debug ignore-errors progress timezone= krb5-config-path= access-token= insecure',
  ),
  meta: 'none',
  sql: ['--execute'],
  files: ['--file'],
};

const CLIENTS: Record<string, Client> = {
  psql: PSQL,
  pgcli: PSQL,
  mysql: MYSQL,
  mariadb: MYSQL,
  mycli: MYSQL,
  sqlite3: SQLITE,
  sqlite: SQLITE,
  litecli: SQLITE,
  duckdb: DUCKDB,
  'clickhouse-client': CLICKHOUSE,
  'clickhouse-local': CLICKHOUSE,
  usql: USQL,
  sqlcmd: SQLCMD,
  snowsql: SNOWSQL,
  cqlsh: CQLSH,
  trino: TRINO,
  presto: TRINO,
};

/** Programs whose first word names the SQL client they run (`cockroach sql`, `clickhouse client`). */
const SUBCOMMAND_CLIENTS: Record<string, Record<string, Client>> = {
  cockroach: { sql: COCKROACH, demo: COCKROACH },
  clickhouse: { client: CLICKHOUSE, local: CLICKHOUSE },
};

/** Is this program (possibly with its subcommand) a SQL client this module reads? */
export function isSqlClient(program: string): boolean {
  return Object.hasOwn(CLIENTS, program) || Object.hasOwn(SUBCOMMAND_CLIENTS, program) || program === 'bq';
}

/**
 * Cloud and service CLIs that send SQL to a database: the command path that does it, the options
 * whose value is SQL (every word up to the next option, for list options such as --sqls), and the
 * options naming a file of SQL.
 */
interface ServiceSql {
  path: readonly string[];
  sql: readonly string[];
  files?: readonly string[];
  dialect?: SqlDialect;
}

const SERVICE_SQL: Record<string, readonly ServiceSql[]> = {
  aws: [
    { path: ['athena', 'start-query-execution'], sql: ['--query-string'] },
    { path: ['redshift-data', 'execute-statement'], sql: ['--sql'], dialect: 'postgres' },
    { path: ['redshift-data', 'batch-execute-statement'], sql: ['--sqls'], dialect: 'postgres' },
    { path: ['rds-data', 'execute-statement'], sql: ['--sql'] },
    { path: ['rds-data', 'batch-execute-statement'], sql: ['--sql'] },
  ],
  gcloud: [{ path: ['spanner', 'databases', 'execute-sql'], sql: ['--sql'] }],
  wrangler: [{ path: ['d1', 'execute'], sql: ['--command'], files: ['--file'], dialect: 'sqlite' }],
  az: [
    {
      path: ['postgres', 'flexible-server', 'execute'],
      sql: ['--querytext', '-q'],
      files: ['--file-path', '-f'],
      dialect: 'postgres',
    },
    {
      path: ['mysql', 'flexible-server', 'execute'],
      sql: ['--querytext', '-q'],
      files: ['--file-path', '-f'],
      dialect: 'mysql',
    },
  ],
  snow: [{ path: ['sql'], sql: ['--query', '-q'], files: ['--filename', '-f'] }],
};

/** The SQL a cloud or service CLI sends (aws athena --query-string, wrangler d1 execute --command), analysed. */
export function serviceSql(ex: Extractor, inv: Invocation, program: string): ClientSql | undefined {
  const specs = Object.hasOwn(SERVICE_SQL, program) ? SERVICE_SQL[program] : undefined;
  if (!specs) return undefined;
  const { argv, unresolved } = inv;
  const words = argv.slice(1).map((w) => w.toLowerCase());
  const spec = specs.find((s) => containsRun(words, s.path));
  if (!spec) return undefined;
  const client: Client = {
    model: optionModel(''),
    meta: 'none',
    sql: [],
    files: [],
    ...(spec.dialect ? { dialect: spec.dialect } : {}),
  };
  const reader = new Reader(ex, inv, client);
  for (let k = 1; k < argv.length; k++) {
    const arg = argv[k] as string;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const isSql = spec.sql.includes(name);
    if (!isSql && !spec.files?.includes(name)) continue;
    // `--opt=value`, or the words up to the next option.
    const values: Array<[string, boolean]> = [];
    if (eq > 0 && name !== arg) values.push([arg.slice(eq + 1), unresolved[k] ?? false]);
    else
      for (let j = k + 1; j < argv.length && !(argv[j] as string).startsWith('-'); j++) {
        values.push([argv[j] as string, unresolved[j] ?? false]);
        if (!isSql || name !== '--sqls') break;
      }
    for (const [value, dynamic] of values) {
      // The AWS CLI reads any parameter from file://PATH.
      const file = /^fileb?:\/\//.test(value) ? value.replace(/^fileb?:\/\//, '') : undefined;
      if (isSql && file === undefined) reader.text(value, dynamic);
      else reader.file(file ?? value, dynamic);
    }
  }
  return reader.result();
}

/** Whether `path` occurs in `words` as consecutive words. */
function containsRun(words: readonly string[], path: readonly string[]): boolean {
  for (let i = 0; i + path.length <= words.length; i++) {
    if (path.every((p, k) => words[i + k] === p)) return true;
  }
  return false;
}

/** Largest SQL file read at decision time; a larger one is unknown. */
export const MAX_SQL_FILE = 256 * 1024;

/** Via entries that run the command on another host or in a container: its files are not ours to read. */
const REMOTE_VIA = /^(ssh|docker|podman|kubectl|oc|nerdctl)\b/;

/** Everything a SQL client will run, analysed: the segment's `sql` facts, and its `payload` text. */
export interface ClientSql {
  facts: SqlFacts;
  /** SQL given on the command line or as static stdin, joined (files are not copied in). */
  payload?: string;
}

export function clientSql(ex: Extractor, inv: Invocation, program: string): ClientSql | undefined {
  let argv = inv.argv;
  let unresolved = inv.unresolved;
  let client = own(CLIENTS, program);
  if (program === 'bq') return bigQuery(inv);
  const sub = own(SUBCOMMAND_CLIENTS, program);
  if (sub) {
    client = sub[(argv[1] ?? '').toLowerCase()];
    argv = argv.slice(1);
    unresolved = unresolved.slice(1);
  }
  if (!client) return undefined;
  const reader = new Reader(ex, inv, client);
  const args = argv
    .slice(1)
    .map((a) => (client.singleDash && /^-[^-]/.test(a) && a.length > 2 ? `-${a}` : a))
    .map((a) => (client.dialect === 'mysql' ? mysqlOptionName(a) : a));
  const parsed = parseOptions(client.model, args);
  const values = (names: readonly string[] | undefined) =>
    (names ?? []).flatMap((name) =>
      parsed.canonical.filter((c) => c.startsWith(`${name}=`)).map((c) => c.slice(name.length + 1)),
    );
  const wordUnresolved = (value: string) =>
    argv.some((w, k) => unresolved[k] && value !== '' && (w === value || w.endsWith(value)));

  // A variable or substitution that is not the value of a known option could be any option, SQL included.
  const known = new Set(parsed.positionals);
  for (const [k, word] of argv.entries()) {
    if (k === 0 || !unresolved[k] || attachedValue(client.model, word)) continue;
    if (known.has(word) || word.startsWith('-')) reader.unknown();
  }
  for (const name of parsed.canonical) {
    const bare = name.split('=')[0] as string;
    if (!isKnown(client.model, bare)) reader.unknownOption();
  }
  for (const value of values(client.programs)) if (value !== '') reader.dynamic();
  for (const value of values(client.pipes)) if (value.trimStart().startsWith('|')) reader.dynamic();
  for (const file of values(client.defaultsFiles)) reader.defaultsFile(file, wordUnresolved(file));
  for (const file of values(client.initFiles)) reader.file(file, wordUnresolved(file));
  for (const sql of values(client.initSql)) reader.text(sql, wordUnresolved(sql));
  // The client reads $MYSQL_HOME/my.cnf (MariaDB: $MARIADB_HOME) as an option file.
  if (client.dialect === 'mysql' && !parsed.canonical.includes('--no-defaults')) {
    for (const a of inv.assignments) {
      const home = /^(?:MYSQL_HOME|MARIADB_HOME)=(.*)$/s.exec(a);
      if (home) reader.defaultsFile(`${home[1] || '.'}/my.cnf`, /[$`]/.test(home[1] as string));
    }
  }
  if (parsed.canonical.includes('--named-commands')) reader.namedCommands();
  if (program === 'psql' && !parsed.canonical.includes('--no-psqlrc')) {
    const rc = inv.assignments.find((a) => a.startsWith('PSQLRC='));
    if (rc) reader.file(rc.slice(7), false);
  }
  let replacesStdin = false;
  for (const sql of values(client.sql)) {
    replacesStdin = true;
    reader.text(sql, wordUnresolved(sql));
  }
  let stdinFile = false;
  for (const file of values(client.files)) {
    replacesStdin = true;
    if (file === '-' || file === '/dev/stdin') stdinFile = true;
    else reader.file(file, wordUnresolved(file));
  }
  if (client.positionalSql) {
    for (const sql of parsed.positionals.slice(client.positionalSql === 'all' ? 0 : 1)) {
      replacesStdin = true;
      reader.text(sql, wordUnresolved(sql));
    }
  }
  if (reader.fallback) {
    // An option this model does not know: read every operand as possible SQL too.
    for (const word of parsed.positionals) reader.text(word, wordUnresolved(word));
  }
  if (!replacesStdin || stdinFile) reader.stdin();
  return reader.result();
}

/**
 * `-p"$DB_PASSWORD"`, `--password=$X`: the expansion is glued after a known option that takes a
 * value, so it can only be that value, never another option.
 */
function attachedValue(model: OptionModel, word: string): boolean {
  const at = word.search(/[$`]/);
  if (at < 0) return false;
  if (word.startsWith('--')) {
    const eq = word.indexOf('=');
    return eq > 2 && eq < at && model.long.has(word.slice(2, eq));
  }
  const def = /^-[A-Za-z0-9]/.test(word) && at >= 2 ? model.short.get(word[1] as string) : undefined;
  return def !== undefined && def.arity !== 'none';
}

function isKnown(model: OptionModel, canonical: string): boolean {
  const name = canonical.replace(/^--?/, '');
  return canonical.startsWith('--') ? model.long.has(name) : model.short.has(name);
}

/** `bq query [flags] SQL…`: the operands after `query` are the statement. */
function bigQuery(inv: Invocation): ClientSql | undefined {
  const k = inv.argv.findIndex((w, i) => i > 0 && !w.startsWith('-'));
  if (k < 0 || inv.argv[k] !== 'query') return undefined;
  const words = inv.argv.slice(k + 1).filter((w) => !w.startsWith('-'));
  if (inv.unresolved.slice(k + 1).some(Boolean)) return { facts: UNKNOWN_SQL };
  if (words.length === 0) return undefined;
  const text = words.join(' ');
  return { facts: sqlFacts(analyseSql(text)), payload: text };
}

/** Collects the pieces of SQL a client runs and analyses each. */
class Reader {
  private readonly parts: SqlFacts[] = [];
  private readonly texts: string[] = [];
  fallback = false;
  private named = false;

  constructor(
    private readonly ex: Extractor,
    private readonly inv: Invocation,
    private readonly client: Client,
  ) {}

  unknown(): void {
    this.parts.push(UNKNOWN_SQL);
  }

  unknownOption(): void {
    this.fallback = true;
  }

  dynamic(): void {
    this.parts.push({ destructive: [], dynamic: true, unknown: false, read_only: false });
  }

  text(sql: string, unresolved: boolean): void {
    if (unresolved) {
      this.unknown();
      return;
    }
    this.texts.push(sql);
    this.analyse(sql);
  }

  file(word: string, unresolved: boolean): void {
    const text = this.read(word, unresolved);
    if (text === undefined) this.unknown();
    else this.analyse(text);
  }

  /** A mysql option file: its init-command and execute run, its pager is a program. */
  defaultsFile(word: string, unresolved: boolean): void {
    const text = this.read(word, unresolved);
    if (text === undefined) {
      this.unknown();
      return;
    }
    for (const line of text.split('\n')) {
      // `!include` / `!includedir`: options from files not read here.
      if (/^\s*!/.test(line)) {
        this.unknown();
        continue;
      }
      const m = /^\s*([A-Za-z][\w-]*)\s*(?:=\s*(.*?))?\s*$/.exec(line);
      if (!m) continue;
      const name = mysqlOptionName(`--${m[1] as string}`)
        .slice(2)
        .toLowerCase();
      const value = (m[2] ?? '').replace(/^(['"])(.*)\1$/, '$2');
      if (name === 'pager' || name === 'system-command') this.dynamic();
      else if (name === 'named-commands') this.namedCommands();
      else if (/^(init-command(-add)?|execute)$/.test(name)) this.analyse(value);
    }
  }

  /** `-G`: `system` and `source` run mid-statement, where the lexer reads no command word. */
  namedCommands(): void {
    this.named = true;
  }

  /** What the client reads on stdin: a heredoc, a here-string, piped text, or a file redirected in. */
  stdin(): void {
    if (this.inv.redirects.some((r) => (r.fd === undefined || r.fd === 0) && r.op === '<&')) {
      this.unknown();
      return;
    }
    const stdin = this.inv.stdin;
    if (!stdin) return;
    if (stdin.from === 'file' && stdin.text === undefined && stdin.file !== undefined) {
      this.file(stdin.file, /[$`]/.test(stdin.file));
      return;
    }
    if (stdin.text === undefined) {
      this.unknown();
      return;
    }
    if (stdin.from === 'heredoc' && !heredocQuoted(this.inv.text) && /\$[\w{(@*#?$!-]|`/.test(stdin.text)) {
      // An unquoted heredoc expands $VAR and $(…) before the client reads it.
      this.unknown();
      return;
    }
    this.texts.push(stdin.text);
    this.analyse(stdin.text);
  }

  result(): ClientSql | undefined {
    const facts = mergeFacts(this.parts);
    if (!facts) return undefined;
    const out: ClientSql = { facts };
    if (this.texts.length > 0) out.payload = this.texts.join('\n');
    return out;
  }

  private analyse(text: string): void {
    const opts = this.client.dialect
      ? { dialect: this.client.dialect, meta: this.client.meta }
      : { meta: this.client.meta };
    const facts = sqlFacts(analyseSql(text, opts));
    // sqlcmd `!!cmd` and `:r file`, snowsql `!system` / `!source`: client commands outside SQL.
    if (this.client === SQLCMD && /^\s*(:?!!|:r\b|:out\b)|\$\(/im.test(text)) facts.dynamic = true;
    if (this.client === SNOWSQL && /^\s*!(system|source|load|spool)\b/im.test(text)) facts.dynamic = true;
    if (this.named && /\b(system|source)\b/i.test(text)) facts.dynamic = true;
    if (facts.dynamic || facts.unknown || facts.destructive.length > 0) facts.read_only = false;
    this.parts.push(facts);
  }

  /** The text of a file the client reads, or undefined when it cannot be read here and now. */
  private read(word: string, unresolved: boolean): string | undefined {
    if (unresolved || word === '') return undefined;
    if (word === '/dev/null') return '';
    if (this.inv.via.some((v) => REMOTE_VIA.test(v))) return undefined;
    const files = this.ex.res.files;
    if (!files) return undefined;
    const { paths, unresolved: unknownPath } = this.ex.res.paths(word);
    if (unknownPath || paths.length === 0) return undefined;
    const texts: string[] = [];
    for (const path of paths) {
      const text = files.readText(path, MAX_SQL_FILE);
      if (text === undefined) return undefined;
      texts.push(text);
    }
    // Several directories the command may be in: every candidate file is judged.
    return texts.join('\n;\n');
  }
}

/** True when every heredoc delimiter in the command text is quoted (`<<'SQL'`, `<<"SQL"`, `<<\SQL`). */
function heredocQuoted(text: string): boolean {
  const delimiters = [...text.matchAll(/<<-?(?!<)\s*([^\s;&|<>()]+)/g)].map((m) => m[1] as string);
  return delimiters.length > 0 && delimiters.every((d) => /['"\\]/.test(d));
}

/**
 * A mysql long option as the client's option parser reads it: `--loose-` and `--enable-` add
 * nothing (`--loose-execute=…` is --execute), and `_` is `-` in a name (`--init_command`).
 */
function mysqlOptionName(arg: string): string {
  const m = /^--(?:loose-|enable-)*([A-Za-z][\w-]*)(=.*)?$/s.exec(arg);
  if (!m) return arg;
  return `--${(m[1] as string).replace(/_/g, '-')}${m[2] ?? ''}`;
}
