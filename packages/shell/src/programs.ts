// Program families the extractor treats specially: shells, interpreters, database clients, and
// programs whose stdin is data (so a heredoc fed to them is not a script).

export const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'yash',
  'posh',
  'csh',
  'tcsh',
]);

/** Programs that run a TypeScript or JavaScript file as node does, node's options with theirs. */
export const TS_RUNNERS: ReadonlySet<string> = new Set([
  'tsx',
  'ts-node',
  'ts-node-esm',
  'ts-node-script',
  'esno',
  'vite-node',
  'babel-node',
  'sucrase-node',
]);

export type Language = 'python' | 'node' | 'perl' | 'ruby' | 'php' | 'lua' | 'awk' | 'other';

export function interpreterLanguage(program: string): Language | null {
  if (/^(python|pypy)[0-9.]*$/.test(program)) return 'python';
  if (program === 'node' || program === 'nodejs' || program === 'bun' || program === 'deno') return 'node';
  if (TS_RUNNERS.has(program)) return 'node';
  if (/^perl[0-9.]*$/.test(program)) return 'perl';
  if (/^ruby[0-9.]*$/.test(program) || program === 'jruby') return 'ruby';
  if (/^php[0-9.]*$/.test(program)) return 'php';
  if (/^lua(jit|[0-9.]*)$/.test(program)) return 'lua';
  if (
    program === 'awk' ||
    program === 'gawk' ||
    program === 'mawk' ||
    program === 'nawk' ||
    program === 'busybox-awk'
  ) {
    return 'awk';
  }
  if (program === 'pwsh' || program === 'powershell' || isOtherInterpreter(program)) return 'other';
  return null;
}

/** Interpreters whose code the gate does not read (other-interpreters.ts judges them). */
const OTHER_INTERPRETERS = new Set([
  'rscript',
  'r',
  'osascript',
  'tclsh',
  'wish',
  'expect',
  'julia',
  'groovy',
  'guile',
  'racket',
  'sbcl',
  'clisp',
  'erl',
  'elixir',
  'jshell',
  'octave',
  'nu',
  'xonsh',
  'elvish',
  'bb',
  'clojure',
  'clj',
  'hy',
  'ghc',
  'runghc',
  'runhaskell',
  'scala',
  'gdb',
  'ghci',
  'raku',
  'rakudo',
  'kotlin',
  'kotlinc',
  'swift',
  'ocaml',
  'java',
  'ansible-playbook',
]);

/** A program's name without a version or variant suffix (`julia-1.10`, `tclsh8.6`, `octave-cli`). */
export function otherBase(program: string): string {
  return program.replace(/(-?\d[\d.]*|-cli|-multiarch)$/, '');
}

export function isOtherInterpreter(program: string): boolean {
  return OTHER_INTERPRETERS.has(otherBase(program));
}

/** Options that carry inline code, per language. */
export const CODE_OPTIONS: Record<Language, readonly string[]> = {
  python: ['-c'],
  node: ['-e', '--eval', '-p', '--print', '-pe'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  lua: ['-e'],
  awk: ['--source', '-e'],
  other: [
    '-e',
    '-c',
    '-command',
    '--command',
    '--commands',
    '--eval',
    '-eval',
    '-E',
    '--print',
    '-ex',
    '--eval-command',
    '-iex',
    '--init-eval-command',
  ],
};

/** Options that load code from a module or file named by their value. */
export const LOAD_OPTIONS: Record<Language, readonly string[]> = {
  python: ['-m'],
  // --snapshot-blob: the program comes from the blob, a file of V8 heap and code.
  node: ['-r', '--require', '--import', '--loader', '--experimental-loader', '--snapshot-blob'],
  perl: ['-M', '-m', '-I'],
  ruby: ['-r', '-I'],
  php: ['-d'],
  lua: ['-l'],
  awk: ['-f', '--file', '-i', '--include', '-E', '--exec', '-l', '--load'],
  other: ['-f', '-file', '--file', '-x', '--load', '--script', '-r'],
};

/** Long options of interpreters whose parser takes unambiguous prefixes (gawk uses getopt_long). */
const LONG_OPTIONS: Partial<Record<Language, readonly string[]>> = {
  awk: (
    '--assign --bignum --characters-as-bytes --copyright --csv --debug --dump-variables --exec ' +
    '--field-separator --file --gen-pot --help --include --lint --load --no-optimize --non-decimal-data ' +
    '--optimize --posix --pretty-print --profile --re-interval --sandbox --source --traditional ' +
    '--use-lc-numeric --version'
  ).split(' '),
};

/** The long option an abbreviation names, when it names exactly one; the word itself otherwise. */
export function expandLong(language: Language, name: string): string {
  const longs = LONG_OPTIONS[language];
  if (!longs || !name.startsWith('--') || longs.includes(name)) return name;
  const found = longs.filter((l) => l.startsWith(name));
  return found.length === 1 ? (found[0] as string) : name;
}

/** Options that take a value which is not code. */
export const DATA_OPTIONS: Record<Language, readonly string[]> = {
  python: ['-W', '-X', '-Q'],
  node: [
    '--title',
    '--input-type',
    '--stack-size',
    '--max-old-space-size',
    '--env-file',
    '-C',
    '--conditions',
  ],
  perl: [],
  ruby: ['-E', '--encoding'],
  php: ['-c'],
  lua: [],
  awk: ['-F', '-v', '--assign', '--field-separator'],
  other: [],
};

export type DatabaseClient =
  | 'psql'
  | 'mysql'
  | 'sqlite3'
  | 'mongosh'
  | 'redis-cli'
  | 'clickhouse-client'
  | 'cqlsh'
  | 'duckdb'
  /** Other SQL clients, read by sql-clients.ts. */
  | 'sql';

export function databaseClient(program: string): DatabaseClient | null {
  switch (program) {
    case 'psql':
    case 'pgcli':
      return 'psql';
    case 'mysql':
    case 'mariadb':
    case 'mycli':
      return 'mysql';
    case 'sqlite3':
    case 'sqlite':
    case 'litecli':
      return 'sqlite3';
    case 'mongosh':
    case 'mongo':
      return 'mongosh';
    case 'redis-cli':
    case 'valkey-cli':
    case 'keydb-cli':
      return 'redis-cli';
    case 'clickhouse-client':
      return 'clickhouse-client';
    case 'cqlsh':
      return 'cqlsh';
    case 'duckdb':
      return 'duckdb';
    case 'clickhouse':
    case 'clickhouse-local':
    case 'cockroach':
    case 'usql':
    case 'sqlcmd':
    case 'snowsql':
    case 'bq':
    case 'trino':
    case 'presto':
      return 'sql';
    default:
      return null;
  }
}

/**
 * Programs none of whose options writes, runs a program or reaches the network: a glob the gate
 * could not expand may name any file, `-rf` or `--pre=sh` included, and for these it changes
 * nothing (not `sort`: -o writes, --compress-program runs; not `rg`: --pre runs; not `file`: -C writes).
 */
export const OPTION_INERT = new Set(
  (
    'echo cat ls head tail wc stat du grep egrep fgrep diff cmp cut nl readlink realpath basename dirname ' +
    'md5sum sha1sum sha256sum sha512sum cksum'
  ).split(' '),
);

/** Programs whose stdin is data: a heredoc or pipe into them is text, not a script. */
export const DATA_STDIN = new Set(
  (
    'cat tac head tail tee wc base64 base32 grep egrep fgrep rg ag sed sort uniq cut tr less more diff patch xxd od hexdump ' +
    'md5sum sha1sum sha256sum sha512sum gpg openssl jq yq column fold fmt nl paste rev iconv gzip gunzip zcat bzip2 xz ' +
    'zstd tar curl wget http https xh git gh glab hub mail mailx sendmail pbcopy xclip xsel wl-copy nc ncat socat ' +
    'kubectl oc docker podman helm envsubst read true false echo printf test tput col expand unexpand split csplit ' +
    'strings file touch mkdir ls pwd'
  ).split(' '),
);

/** Programs that only remove what they are given. */
export const REMOVERS: ReadonlySet<string> = new Set(['rm', 'rimraf']);
/**
 * Programs whose writes leave no contents behind (a removal, an empty directory): nothing a later
 * command could run or rely on, so the session's record of what it wrote does not keep them.
 */
export const LEAVES_NOTHING: ReadonlySet<string> = new Set([...REMOVERS, 'rmdir', 'unlink', 'mkdir']);
