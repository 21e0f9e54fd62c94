// Client meta-commands inside SQL text: psql `\…`, the mysql client's `\…` and word commands, and the
// sqlite3 (and duckdb) shell's `.…` dot-commands. Each is a read, a write, a file write, or dynamic
// (it runs a shell command, a file of statements, an editor, or statements built from query output).
// sqlite3 accepts any unambiguous prefix of a dot-command (`.sys` is `.system`), so a name is judged
// by every command it may abbreviate. A meta-command nobody knows is dynamic.
import type { MetaSyntax } from './sql-lexer.js';

export interface MetaVerdict {
  destructive: string[];
  dynamic: string[];
  read_only: boolean;
}

const READ: MetaVerdict = { destructive: [], dynamic: [], read_only: true };
const WRITE: MetaVerdict = { destructive: [], dynamic: [], read_only: false };
const dynamic = (why: string): MetaVerdict => ({ destructive: [], dynamic: [why], read_only: false });
const fileWrite: MetaVerdict = { destructive: ['WRITE FILE'], dynamic: [], read_only: false };

export function metaVerdict(syntax: MetaSyntax, name: string, args: string): MetaVerdict {
  if (syntax === 'psql') return psqlMeta(name.slice(1), args);
  if (syntax === 'mysql') return mysqlMeta(name);
  if (syntax === 'sqlite') return sqliteMeta(name.slice(1).toLowerCase(), args);
  return dynamic(`meta-command ${name}`);
}

const PSQL_READ =
  /^(d\S*|l\+?|list\+?|x|timing|conninfo|q|quit|echo|qecho|warn|pset|a|t|H|C|f|T|encoding|\?|h|help|c|connect|cd|set|unset|if|elif|else|endif|p|print|r|reset|sf\+?|sv\+?|z\S*|errverbose|bind|bind_named|parse|close|close_prepared|prompt|copyright|watch|gdesc|gset|crosstabview|startpipeline|endpipeline|syncpipeline|flush|flushrequest|getresults|sendpipeline)$/;

function psqlMeta(name: string, args: string): MetaVerdict {
  // psql runs backquoted text in a meta-command's arguments as a shell command (`\echo `rm -rf ~``).
  if (args.includes('`')) return dynamic(`\\${name} runs a backquoted shell command`);
  switch (name) {
    case '!':
    case '|':
      return dynamic(`\\${name} runs a shell command`);
    case 'i':
    case 'ir':
    case 'include':
    case 'include_relative':
      return dynamic(`\\${name} runs the statements of a file`);
    case 'gexec':
      return dynamic('\\gexec runs query output as statements');
    case 'e':
    case 'edit':
    case 'ef':
    case 'ev':
    case 'setenv':
      return dynamic(`\\${name} runs a program or changes its environment`);
    case 'copy':
      return copyArgs(args);
    case 'lo_unlink':
      return { destructive: ['LO_UNLINK'], dynamic: [], read_only: false };
    case 'lo_export':
      return fileWrite;
    case 'lo_import':
      return WRITE;
    case 'o':
    case 'out':
    case 'w':
    case 'write':
    case 's':
    case 'g':
    case 'gx':
      return args === '' ? READ : output(args);
    default:
      return PSQL_READ.test(name) ? READ : dynamic(`unknown meta-command \\${name}`);
  }
}

/** `\o FILE`, `\g |cmd`: a pipe runs a command, anything else writes (truncates) a file. */
function output(args: string): MetaVerdict {
  return /^['"]?\|/.test(args) ? dynamic('output piped to a shell command') : fileWrite;
}

function copyArgs(args: string): MetaVerdict {
  if (/\bprogram\b/i.test(args)) return dynamic('\\copy … program runs a shell command');
  if (/\bto\s+(?!stdout\b|pstdout\b)\S/i.test(args)) return fileWrite;
  if (/\bto\s+(stdout|pstdout)\b/i.test(args)) return READ;
  return WRITE;
}

function mysqlMeta(name: string): MetaVerdict {
  switch (name) {
    case '\\!':
    case 'system':
      return dynamic('system runs a shell command');
    case '\\.':
    case 'source':
      return dynamic('source runs the statements of a file');
    case '\\e':
    case 'edit':
    case '\\P':
    case 'pager':
      return dynamic(`${name} runs a program`);
    case '\\T':
    case 'tee':
      return WRITE;
    default:
      // Word commands left (use, status, delimiter, …) and these letters only read or set the session.
      return name.startsWith('\\') && !/^\\[hqrusCWwpcRtnxdGg#?]$/.test(name) ? WRITE : READ;
  }
}

/** Every sqlite3 shell dot-command, by how it acts. */
const SQLITE: Record<string, 'read' | 'write' | 'dynamic' | 'file' | 'output' | 'restore'> = {
  archive: 'dynamic',
  auth: 'dynamic',
  backup: 'file',
  bail: 'read',
  binary: 'read',
  cd: 'read',
  changes: 'read',
  check: 'read',
  clone: 'write',
  connection: 'read',
  crlf: 'read',
  databases: 'read',
  dbconfig: 'write',
  dbinfo: 'read',
  dbtotxt: 'read',
  dump: 'read',
  echo: 'read',
  eqp: 'read',
  excel: 'dynamic',
  exit: 'read',
  expert: 'read',
  explain: 'read',
  filectrl: 'dynamic',
  fullschema: 'read',
  headers: 'read',
  help: 'read',
  import: 'output',
  imposter: 'dynamic',
  indexes: 'read',
  indices: 'read',
  intck: 'read',
  limit: 'read',
  lint: 'read',
  load: 'dynamic',
  log: 'output',
  mode: 'read',
  nonce: 'read',
  nullvalue: 'read',
  once: 'output',
  open: 'write',
  output: 'output',
  parameter: 'read',
  print: 'read',
  progress: 'read',
  prompt: 'read',
  quit: 'read',
  read: 'dynamic',
  recover: 'read',
  restore: 'restore',
  save: 'file',
  scanstats: 'read',
  schema: 'read',
  selftest: 'dynamic',
  separator: 'read',
  session: 'dynamic',
  sha3sum: 'read',
  shell: 'dynamic',
  show: 'read',
  stats: 'read',
  system: 'dynamic',
  tables: 'read',
  testcase: 'dynamic',
  testctrl: 'dynamic',
  timeout: 'read',
  timer: 'read',
  trace: 'output',
  unmodule: 'dynamic',
  version: 'read',
  vfsinfo: 'read',
  vfslist: 'read',
  vfsname: 'read',
  width: 'read',
  www: 'dynamic',
};

function sqliteMeta(name: string, args: string): MetaVerdict {
  const exact = SQLITE[name];
  const kinds = exact
    ? [exact]
    : Object.entries(SQLITE)
        .filter(([full]) => name !== '' && full.startsWith(name))
        .map(([, kind]) => kind);
  if (kinds.length === 0) return dynamic(`unknown dot-command .${name}`);
  const verdicts = kinds.map((kind) => sqliteKind(kind, name, args));
  return {
    destructive: [...new Set(verdicts.flatMap((v) => v.destructive))],
    dynamic: [...new Set(verdicts.flatMap((v) => v.dynamic))],
    read_only: verdicts.every((v) => v.read_only),
  };
}

function sqliteKind(kind: (typeof SQLITE)[string], name: string, args: string): MetaVerdict {
  switch (kind) {
    case 'read':
      return READ;
    case 'write':
      return /(^|\s)--?new\b/.test(args) ? fileWrite : WRITE;
    case 'dynamic':
      return dynamic(`.${name} runs a program, a file of statements or a test hook`);
    case 'file':
      return fileWrite;
    case 'restore':
      return { destructive: ['RESTORE'], dynamic: [], read_only: false };
    case 'output':
      if (/(^|\s)['"]?\|/.test(args) || /(^|\s)-[a-z]*[xe]\b/.test(args))
        return dynamic(`.${name} runs a program`);
      if (args === '' || /^(stdout|off)$/i.test(args)) return READ;
      return name.startsWith('i') ? WRITE : fileWrite;
  }
}
