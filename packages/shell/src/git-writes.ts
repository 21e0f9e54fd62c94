// The directories a git command creates: `git clone URL [DIR]` (DIR, or the name git derives from
// the URL), `git worktree add PATH`, `git init DIR`, and `--separate-git-dir DIR` of clone/init;
// and the work tree `git apply` writes into.
// Judged as any write is, so a clone or worktree outside the project (`git clone x ../other`) is a
// write outside it. `git init` without a directory reinitialises where it runs and is not counted.
// Files commands write where an option or operand says (outputFiles): the diff family's `--output`
// (`git log --out=.claude/settings.json` writes that file), archive, bundle, format-patch,
// bugreport, diagnose, fast-export/fast-import marks, index-pack, pack-objects, checkout-index
// --prefix.
import { posix } from 'node:path';

/** Value options of clone, init and worktree add (their values are not operands). */
const VALUES = new Set([
  '-b',
  '--branch',
  '-o',
  '--origin',
  '--depth',
  '--reference',
  '--reference-if-able',
  '-c',
  '--config',
  '--template',
  '--separate-git-dir',
  '-u',
  '--upload-pack',
  '--filter',
  '-j',
  '--jobs',
  '--shallow-since',
  '--shallow-exclude',
  '--server-option',
  '--bundle-uri',
  '--ref-format',
  '--object-format',
  '--shared',
  '-B',
  '--reason',
  '--initial-branch',
]);

/**
 * Paths written by `git SUB ARGS` (argv from the subcommand on), each with its index in `args`
 * (-1 when derived from a URL). `base` is the directory `-C` moved to, relative to where git runs.
 */
export function gitWrites(
  args: readonly string[],
  base: string,
  /** Reads a patch file named by the command (relative to where git runs); undefined when it cannot. */
  read?: (path: string) => string | undefined,
  /** The command's stdin, where a patch without a file operand comes from: undefined when not known. */
  stdin?: string,
): Array<{ text: string; at: number; unknown?: boolean; moved?: boolean; replaces?: boolean }> {
  const outputs = outputFiles(args).map(({ text, at }) => ({
    text: base === '' || text.startsWith('/') || text.startsWith('~') ? text : posix.join(base, text),
    at,
  }));
  return [...outputs, ...namedWrites(args, base, read, stdin)];
}

/** Whether `arg` is `--output` or a prefix of it git would take (`--out`), with `=value` or not. */
function outputOption(arg: string): { value?: string } | undefined {
  const eq = arg.indexOf('=');
  const name = eq > 0 ? arg.slice(0, eq) : arg;
  if (name.length < 4 || !'--output'.startsWith(name)) return undefined;
  return eq > 0 ? { value: arg.slice(eq + 1) } : {};
}

/** Short options that name an output file or directory, per subcommand. */
const SHORT_OUTPUT: Readonly<Record<string, string>> = {
  mailsplit: '-o',
  'format-patch': '-o',
  archive: '-o',
  bugreport: '-o',
  diagnose: '-o',
  'index-pack': '-o',
};
/** Long options other than `--output` that name an output file or directory, per subcommand. */
const LONG_OUTPUT: Readonly<Record<string, readonly string[]>> = {
  'format-patch': ['--output-directory'],
  bugreport: ['--output-directory'],
  diagnose: ['--output-directory'],
  'fast-export': ['--export-marks'],
  'fast-import': ['--export-marks'],
  'checkout-index': ['--prefix'],
  'credential-store': ['--file'],
  daemon: ['--pid-file'],
};

/**
 * Files (or directories filled with files) a git command writes where its options say: `--output`
 * in any spelling git accepts on any subcommand (every diff, log and show takes it), the
 * subcommand's own `-o`/`--output-directory`-like options, `bundle create FILE`, `pack-objects
 * BASE` (BASE-<hash>.pack beside it). Each with the index of the word that names it.
 */
function outputFiles(args: readonly string[]): Array<{ text: string; at: number }> {
  const sub = args[0] ?? '';
  const short = Object.hasOwn(SHORT_OUTPUT, sub) ? SHORT_OUTPUT[sub] : undefined;
  const long = Object.hasOwn(LONG_OUTPUT, sub) ? (LONG_OUTPUT[sub] as readonly string[]) : [];
  const out: Array<{ text: string; at: number }> = [];
  for (let k = 1; k < args.length; k++) {
    const arg = args[k] as string;
    if (arg === '--') break;
    const output = outputOption(arg);
    const named = long.find((o) => arg === o || arg.startsWith(`${o}=`));
    if (output?.value !== undefined) out.push({ text: output.value, at: k });
    else if (named !== undefined && arg.length > named.length)
      out.push({ text: arg.slice(named.length + 1), at: k });
    else if ((output || named !== undefined || arg === short) && args[k + 1] !== undefined) {
      out.push({ text: args[k + 1] as string, at: k + 1 });
      k++;
    } else if (short !== undefined && arg.startsWith(short) && arg.length > short.length)
      out.push({ text: arg.slice(short.length), at: k });
  }
  // `git bundle create FILE …` and `git pack-objects BASE`: the first operand is written.
  const operand = (from: number) => args.findIndex((a, k) => k >= from && !a.startsWith('-'));
  // `git mailinfo MSG PATCH`: both files are written with what the mail on stdin holds.
  if (sub === 'mailinfo') {
    for (let k = 1; k < args.length; k++)
      if (!(args[k] as string).startsWith('-') && out.length < 2)
        out.push({ text: args[k] as string, at: k });
  }
  // `git credential-store store|erase` without --file keeps the credentials in ~/.git-credentials.
  if (sub === 'credential-store' && /^(store|erase)$/.test(args[args.length - 1] ?? '') && out.length === 0)
    out.push({ text: '~/.git-credentials', at: -1 });
  // `git maintenance register|start` adds the repository to the global configuration (and start
  // installs a scheduler's timers): a write of ~/.gitconfig.
  if (sub === 'maintenance' && (args[1] === 'register' || args[1] === 'start'))
    out.push({ text: '~/.gitconfig', at: -1 });
  if (sub === 'bundle' && args[1] === 'create') {
    const at = operand(2);
    if (at > 0) out.push({ text: args[at] as string, at });
  }
  if (sub === 'pack-objects' && !args.includes('--stdout')) {
    const at = operand(1);
    if (at > 0) out.push({ text: `${args[at] as string}-pack`, at });
  }
  return out.filter((w) => w.text !== '' && w.text !== '-');
}

/** The paths the subcommand itself writes by what it is (apply, mv, clone, init, worktree add). */
function namedWrites(
  args: readonly string[],
  base: string,
  read: ((path: string) => string | undefined) | undefined,
  stdin: string | undefined,
): Array<{ text: string; at: number; unknown?: boolean; moved?: boolean; replaces?: boolean }> {
  const sub = args[0];
  // `git rm PATH…` deletes the files from the work tree too (not with --cached or a dry run); paths
  // from a file cannot be told.
  if (sub === 'rm') {
    let rest = false;
    const out: Array<{ text: string; at: number; unknown?: boolean }> = [];
    for (const [k, a] of args.entries()) {
      if (k === 0) continue;
      if (!rest && /^(--cached|-n|--dry-run|--c(a(c(h(ed?)?)?)?)?|--dr(y(-(r(un?)?)?)?)?)$/.test(a))
        return [];
      if (!rest && a.startsWith('--pathspec-from-file'))
        return [{ text: base === '' ? '.' : base, at: -1, unknown: true }];
      if (!rest && a === '--') rest = true;
      else if (rest || !a.startsWith('-'))
        out.push({ text: base === '' || a.startsWith('/') ? a : posix.join(base, a), at: k });
    }
    return out;
  }
  // `git apply` (and `git am`, whose mailboxes hold patches) writes the files its patches name, as
  // `patch` does. `--check`, `--stat`, `--numstat`, `--summary` only read; `--cached` writes the
  // index only. A patch that cannot be read writes files that cannot be told.
  if (sub === 'apply' || sub === 'am') {
    // git takes any unambiguous prefix of a long option (`--dir=`, `--stat`): read them spelled out.
    args = args.map((a, k) => (k === 0 ? a : spelledOut(sub, a)));
    // `--apply` applies even with `--stat`/`--check`.
    const reads =
      !args.includes('--apply') &&
      args.some((a) => /^--(check|stat|numstat|summary|cached|show-current-patch|abort|quit|skip)$/.test(a));
    if (reads) return [];
    // A mail whose body is encoded (base64, quoted-printable) names its files in a form not read here.
    if (
      sub === 'am' &&
      args
        .slice(1)
        .some(
          (a) =>
            !a.startsWith('-') &&
            /content-transfer-encoding:\s*(base64|quoted-printable)/i.test(read?.(a) ?? ''),
        )
    )
      return [{ text: base === '' ? '.' : base, at: -1, unknown: true }];
    // Going on with a mailbox already taken in: its patches were judged when `git am` first read it.
    if (args.some((a) => /^(--continue|--resolved|-r|--retry)$/.test(a)))
      return [{ text: base === '' ? '.' : base, at: -1 }];
    const named = appliedFiles(args, read, stdin);
    if (named === undefined) return [{ text: base === '' ? '.' : base, at: -1, unknown: true }];
    return named.map((t) => ({ text: base === '' ? t : posix.join(base, t), at: -1 }));
  }
  // `git mv [-f] SRC… DST`: the destination (or what lands in it) is written, the sources go;
  // `git merge-file CURRENT BASE OTHER` writes CURRENT unless it prints (-p, --stdout).
  if (sub === 'mv' || sub === 'merge-file') {
    const operands = args.map((a, k) => ({ a, k })).filter(({ a, k }) => k > 0 && !a.startsWith('-'));
    if (sub === 'merge-file' && args.some((a) => a === '-p' || a === '--stdout')) return [];
    const written = sub === 'mv' ? operands : operands.slice(0, 1);
    // `git mv -f` removes what is at the destination first (without -f git refuses a taken place).
    const forced =
      sub === 'mv' &&
      args.some((a) => /^(-[a-zA-Z]*f[a-zA-Z]*|--f(o(r(ce?)?)?)?)$/.test(a)) &&
      !args.some((a) => /^(-[a-zA-Z]*n[a-zA-Z]*|--d(r(y(-(r(un?)?)?)?)?)?)$/.test(a));
    return written.map(({ a, k }, n) => ({
      text: base === '' || a.startsWith('/') ? a : posix.join(base, a),
      at: k,
      // git mv's sources go to its destination, as mv's do.
      ...(sub === 'mv' && n < written.length - 1 ? { moved: true } : {}),
      ...(forced && n === written.length - 1 ? { replaces: true } : {}),
    }));
  }
  if (sub !== 'clone' && sub !== 'init' && sub !== 'worktree') return [];
  let start = 1;
  if (sub === 'worktree') {
    if (args[1] !== 'add') return [];
    start = 2;
  }
  const operands: number[] = [];
  const out: Array<{ text: string; at: number }> = [];
  let rest = false;
  for (let k = start; k < args.length; k++) {
    const arg = args[k] as string;
    if (rest || arg === '-' || !arg.startsWith('-')) operands.push(k);
    else if (arg === '--') rest = true;
    else if (arg.startsWith('--separate-git-dir=')) out.push({ text: arg.slice(19), at: k });
    else if (VALUES.has(arg)) {
      if (arg === '--separate-git-dir' && args[k + 1] !== undefined)
        out.push({ text: args[k + 1] as string, at: k + 1 });
      k++;
    }
  }
  const first = operands[0];
  if (sub === 'clone') {
    const dir = operands[1];
    if (dir !== undefined) out.push({ text: args[dir] as string, at: dir });
    else if (first !== undefined) {
      // git's "humanish" name: the last path component of the URL, without `.git` or `/.git`.
      const name = posix.basename(
        (args[first] as string)
          .replace(/(\/\.git)?\/*$/, '')
          .replace(/\.git$/, '')
          .replace(/^.*:/, ''),
      );
      if (name !== '' && name !== '.' && name !== '..') out.push({ text: name, at: -1 });
    }
  } else if (first !== undefined) out.push({ text: args[first] as string, at: first });
  // `git -C DIR init`: the repository is made where -C moved git, which may be anywhere.
  else if (sub === 'init' && base !== '') out.push({ text: '.git', at: -1 });
  return out.map((w) => ({
    ...w,
    text: base === '' || w.text.startsWith('/') || w.text.startsWith('~') ? w.text : posix.join(base, w.text),
  }));
}

/** Long options of `git apply` and `git am`, for reading a prefix as git does. */
const LONG: Record<string, readonly string[]> = {
  apply: (
    '--stat --numstat --summary --check --index --intent-to-add --cached --apply --3way --ours --theirs ' +
    '--union --build-fake-ancestor --reverse --reject --allow-overlap --verbose --quiet --inaccurate-eof ' +
    '--recount --directory --unsafe-paths --allow-empty --exclude --include --ignore-space-change ' +
    '--ignore-whitespace --whitespace'
  ).split(' '),
  am: (
    '--signoff --keep --keep-non-patch --keep-cr --no-keep-cr --scissors --no-scissors --quoted-cr ' +
    '--message-id --no-message-id --quiet --utf8 --no-utf8 --3way --no-3way --rerere-autoupdate ' +
    '--ignore-space-change --ignore-whitespace --whitespace --directory --exclude --include --reject ' +
    '--patch-format --interactive --commit-date-is-author-date --ignore-date --skip --gpg-sign ' +
    '--no-gpg-sign --continue --resolved --resolvemsg --abort --quit --retry --show-current-patch ' +
    '--allow-empty --empty'
  ).split(' '),
};

/** A long option as git reads it: an unambiguous prefix spelled out, its `=value` kept. */
function spelledOut(sub: string, arg: string): string {
  if (!arg.startsWith('--') || arg === '--') return arg;
  const eq = arg.indexOf('=');
  const name = eq > 0 ? arg.slice(0, eq) : arg;
  const all = LONG[sub] ?? [];
  if (all.includes(name)) return arg;
  const found = all.filter((o) => o.startsWith(name));
  return found.length === 1 ? `${found[0]}${eq > 0 ? arg.slice(eq) : ''}` : arg;
}

/** Options of `git apply` / `git am` that take a value. */
const APPLY_VALUES = new Set([
  '--exclude',
  '--include',
  '-C',
  '--whitespace',
  '--directory',
  '--patch-format',
  '--resolvemsg',
]);

/**
 * The files `git apply|am PATCH…` writes: every name its patches touch (`diff --git a/x b/y`, `---`,
 * `+++`, `rename`/`copy` from and to: a reversed patch writes the old names), with `-pN` components
 * stripped (1 by default) and `--directory` put in front; undefined when a patch cannot be read, a
 * name is quoted (C-style escapes) or strips to nothing.
 */
function appliedFiles(
  args: readonly string[],
  read: ((path: string) => string | undefined) | undefined,
  stdin: string | undefined,
): string[] | undefined {
  let strip = 1;
  let directory = '';
  const patches: string[] = [];
  let fromStdin = false;
  for (let k = 1; k < args.length; k++) {
    const arg = args[k] as string;
    const p = /^-p(\d+)$/.exec(arg);
    if (p) strip = Number(p[1]);
    else if (arg === '-p') strip = Number(args[++k] ?? '1');
    else if (arg.startsWith('--directory=')) directory = arg.slice(12);
    else if (arg === '--directory') directory = args[++k] ?? '';
    else if (APPLY_VALUES.has(arg)) k++;
    else if (arg === '-') fromStdin = true;
    else if (!arg.startsWith('-')) patches.push(arg);
  }
  const texts: Array<string | undefined> = patches.map((patch) => read?.(patch));
  if (patches.length === 0 || fromStdin) texts.push(stdin);
  return namesInPatches(texts, [strip], directory);
}

/**
 * The files unified or git diffs name (`diff --git a/x b/y`, `---`/`+++`, `rename`/`copy` from and
 * to), each with every strip count in `strips` applied (`-pN`: N leading components off; -1: the
 * basename) and `directory` in front; undefined when a text is missing or a name is quoted or strips to nothing.
 * `git apply`/`git am` (one strip count) and `patch` (none given: the name whole and its basename).
 */
export function namesInPatches(
  texts: ReadonlyArray<string | undefined>,
  strips: readonly number[],
  directory: string,
): string[] | undefined {
  const out = new Set<string>();
  const add = (raw: string, stripped: boolean): boolean => {
    if (raw === '/dev/null') return true;
    if (raw.startsWith('"')) return false;
    for (const strip of stripped ? strips : [0]) {
      const name = strip < 0 ? posix.basename(raw) : raw.split('/').slice(strip).join('/');
      if (name === '') return false;
      out.add(directory === '' ? name : posix.join(directory, name));
    }
    return true;
  };
  for (const text of texts) {
    if (text === undefined) return undefined;
    for (const line of text.split('\n')) {
      const header = /^diff --git (\S+) (\S+)\r?$/.exec(line);
      if (header && !(add(header[1] as string, true) && add(header[2] as string, true))) return undefined;
      const file = /^(\+\+\+|---) (.+?)(\t.*)?\r?$/.exec(line);
      if (file && !add(file[2] as string, true)) return undefined;
      const moved = /^(rename|copy) (from|to) (.+?)\r?$/.exec(line);
      if (moved && !add(moved[3] as string, false)) return undefined;
    }
  }
  // Text with no patch in it (another tool's patch format) applies nothing: git says so and stops.
  return [...out];
}

/** git's trace variables: set to an absolute path, git appends its trace to that file. */
const TRACE_VARIABLE = /^GIT_TRACE(2|2_EVENT|2_PERF|_\w+)?$/;
/** The same targets as configuration (`-c trace2.eventTarget=/path`, as read: lower case). */
const TRACE_CONFIG = /^trace2\.(normal|event|perf)target=(.*)$/s;

/**
 * Files git's tracing writes for this invocation: a trace variable or trace2 target set to an
 * absolute path (or `af_unix:[stream:|dgram:]PATH`, a socket made there); `1`, `true`, a
 * descriptor number and the like go to stderr. A value that is not static may be any path.
 */
export function traceFiles(
  assignments: readonly string[],
  config: readonly string[],
): Array<{ text: string; unresolved: boolean }> {
  const values: string[] = [];
  for (const a of assignments) {
    const eq = a.indexOf('=');
    if (eq > 0 && TRACE_VARIABLE.test(a.slice(0, eq))) values.push(a.slice(eq + 1));
  }
  for (const c of config) {
    const m = TRACE_CONFIG.exec(c);
    if (m) values.push(m[2] as string);
  }
  const out: Array<{ text: string; unresolved: boolean }> = [];
  for (const value of values) {
    const unresolved = /[$`]/.test(value);
    const path = value.replace(/^af_unix:((stream|dgram):)?/i, '');
    if (unresolved) out.push({ text: path, unresolved: true });
    else if (path.startsWith('/') || path.startsWith('~')) out.push({ text: path, unresolved: false });
  }
  return out;
}
