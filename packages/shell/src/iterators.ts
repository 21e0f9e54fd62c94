// Handlers for programs that run a command once per input item: `xargs`, GNU `parallel`, and
// `find -exec/-execdir/-ok/-okdir`. Items that come from stdin or from the file system are not
// static, so the words they fill in are marked unresolved.
import { posix } from 'node:path';
import { createBudget, ShellSyntaxError } from './budget.js';
import { markBuildOutputs } from './build-outputs.js';
import type { Extractor, Handler, Invocation } from './extract.js';
import { findCleanup, notePrintedClean, xargsRemovesItems } from './find-cleanups.js';
import { firstOperand } from './option-scan.js';
import { GLOBAL_VALUE_OPTIONS } from './options.js';
import { Parser } from './parser.js';
import { runShellFile } from './scripts.js';
import type { ShellSegment } from './types.js';

const DEFAULT_IFS = ' \t\n';
const PLACEHOLDER = '{}';

const XARGS_VALUES = new Set([
  '-n',
  '-L',
  '-P',
  '-s',
  '-S',
  '-d',
  '-E',
  '-a',
  '-R',
  '--max-args',
  '--max-lines',
  '--max-procs',
  '--max-chars',
  '--delimiter',
  '--eof',
  '--arg-file',
  '--process-slot-var',
]);

/** `xargs [options] [COMMAND [ARGS…]]`: stdin items are appended (or replace `-I` strings). */
export const xargs: Handler = (ex, inv, env) => {
  const { argv } = inv;
  let replace: string | undefined;
  const i = firstOperand(argv, {
    values: XARGS_VALUES,
    visit: (arg, next) => {
      if (arg === '-I' || arg === '-J') {
        replace = next ?? PLACEHOLDER;
        return 2;
      }
      if (arg.startsWith('-I') || arg.startsWith('-J')) replace = arg.slice(2);
      else if (arg === '-i' || arg === '--replace') replace = PLACEHOLDER;
      else if (arg.startsWith('-i')) replace = arg.slice(2);
      else if (arg.startsWith('--replace=')) replace = arg.slice(10) || PLACEHOLDER;
      return undefined;
    },
  });
  const command = i < argv.length ? argv.slice(i) : ['echo'];
  const flags = i < argv.length ? inv.unresolved.slice(i) : [false];
  // Items are read at run time: even a static `echo` upstream is treated as unknown, because
  // xargs re-splits it (quotes, -0, -d, -L) in ways that are easy to get subtly wrong.
  const next: Invocation = { ...inv, argv: [...command], unresolved: [...flags], via: [...inv.via, 'xargs'] };
  delete next.stdin;
  if (replace !== undefined) {
    next.argv.forEach((word, k) => {
      if (word.includes(replace as string)) next.unresolved[k] = true;
    });
  } else {
    next.argv.push(PLACEHOLDER);
    next.unresolved.push(true);
  }
  const before = ex.segments.length;
  ex.resolve(next, env);
  // `find … -print0 | xargs -0 rm`: the names a find clean printed, removed as its `-exec rm {} +` would.
  const found = inv.stdin?.found;
  if (found !== undefined && xargsRemovesItems(argv, inv.unresolved, found.dirsToo))
    markCleanup(ex.segments.slice(before), found.starts);
};

/** GNU parallel's options that take the next word as their value (a value read as the command would hide it). */
const PARALLEL_VALUES = new Set(
  (
    '-j --jobs -P --max-procs -S --sshlogin --slf --sshloginfile --workdir --wd -n --max-args -N ' +
    '--max-replace-args -L --max-lines -s --max-chars -d --delimiter -E --eof --env --nice -a --arg-file ' +
    '--arg-file-sep --arg-sep --colsep -C --delay --joblog --results --res --tmpdir --tempdir -I --timeout ' +
    '--retries --halt --halt-on-error --basefile --bf --transferfile --tf --return --tag-string --tagstring ' +
    '--load --memfree --memsuspend --block --block-size --blocktimeout --bt --header --trim -J --profile ' +
    '--ssh --sshdelay --compress-program --decompress-program --termseq --recstart --recend --rpl ' +
    '--sqlmaster --sqlworker --sqlandworker --limit --group-by --shard --bin --match --template --seqreplace ' +
    '--hostgroups --hgrp --cpus-limit --ctag --ctagstring'
  ).split(' '),
);
const SEPARATORS = new Set([':::', '::::', ':::+', '::::+']);
const INFO = new Set([
  '--help',
  '-h',
  '--version',
  '-V',
  '--citation',
  '--number-of-cpus',
  '--number-of-cores',
]);
const PARALLEL_PLACEHOLDER = /\{(\d*|\.|\/|\/\/|\/\.|#|%)\}|\{\d+(\.|\/|\/\/|\/\.)\}/;

/** Most `parallel` jobs a command is analysed for: the bound a word's expansion has (extract.ts). */
const MAX_JOBS = 1000;

/**
 * How many jobs the static input sources from `argv[from]` on make: one per combination of the
 * `:::` groups (a `:::+` group is linked to the one before it, not combined). `::::` reads files,
 * whose size is not known here: not counted.
 */
export function parallelJobs(argv: readonly string[], from: number): number {
  let jobs = 1;
  let group = 0;
  let linked = false;
  let counted = false;
  const close = () => {
    if (counted && !linked) jobs *= group;
  };
  for (let k = from; k < argv.length; k++) {
    const arg = argv[k] as string;
    if (SEPARATORS.has(arg)) {
      close();
      group = 0;
      linked = arg.endsWith('+');
      counted = !arg.startsWith('::::');
    } else group++;
  }
  close();
  return jobs;
}

/** GNU `parallel [options] [COMMAND] [::: ARGS…]`: without a command the items are commands. */
export const parallel: Handler = (ex, inv, env) => {
  const { argv } = inv;
  let dryRun = false;
  /** Argument files (`-a FILE`, `:::: FILE`): their lines are items read at run time. */
  const argFiles: Array<{ file: string | undefined; unresolved: boolean }> = [];
  const argFile = (k: number) => argFiles.push({ file: argv[k], unresolved: inv.unresolved[k] ?? false });
  let i = 1;
  while (i < argv.length) {
    const arg = argv[i] as string;
    if (SEPARATORS.has(arg)) break;
    if (arg === '--') {
      i++;
      break;
    }
    if (!arg.startsWith('-')) break;
    if (arg === '--dry-run') dryRun = true;
    if (arg === '--rpl' || arg.startsWith('--rpl=')) ex.flag('parallel_perl_expression', inv.text);
    if (arg === '-a' || arg === '--arg-file') argFile(i + 1);
    else if (arg.startsWith('--arg-file='))
      argFiles.push({ file: arg.slice('--arg-file='.length), unresolved: inv.unresolved[i] ?? false });
    i += PARALLEL_VALUES.has(arg) ? 2 : 1;
  }
  let end = i;
  while (end < argv.length && !SEPARATORS.has(argv[end] as string)) end++;
  const command = argv.slice(i, end);
  // `:::` items are words of the command line; `::::` ones name argument files.
  const items: string[] = [];
  let itemsUnresolved = false;
  let files = false;
  for (let k = end; k < argv.length; k++) {
    const arg = argv[k] as string;
    if (SEPARATORS.has(arg)) files = arg.startsWith('::::');
    else if (files) argFile(k);
    else {
      items.push(arg);
      if (inv.unresolved[k]) itemsUnresolved = true;
    }
  }
  // Options from the environment ($PARALLEL) or a configuration directory the command names
  // ($PARALLEL_HOME) change the replacement strings and the command line: not read here.
  if (
    PARALLEL_SETTINGS.test(ex.res.texts.join('\n')) ||
    inv.assignments.some((a) => PARALLEL_SETTINGS.test(a))
  )
    ex.flag('unresolved_config', inv.text);
  // Counted over every `parallel` of the command, as simple commands are (budget.ts).
  const before = ex.budget.jobs;
  ex.budget.jobs += parallelJobs(argv, end);
  if (ex.budget.jobs > MAX_JOBS && before <= MAX_JOBS) {
    ex.flag('limit', `${inv.text.slice(0, 200)} (parallel runs more than ${MAX_JOBS} jobs in all)`);
  }
  if (command.some((w) => w.includes('{='))) ex.flag('parallel_perl_expression', inv.text);
  if (command.length === 0) {
    if (dryRun) {
      ex.emit(inv);
      return;
    }
    for (const item of items) ex.parseString(item, [...inv.via, 'parallel'], { ifs: DEFAULT_IFS });
    // Each line of an argument file is a command: the file is judged as a script is.
    for (const { file, unresolved } of argFiles) {
      if (file === undefined || file === '-') ex.flag('pipe_to_shell', inv.text);
      else runShellFile(ex, inv, file, unresolved, [], []);
    }
    if (
      items.length === 0 &&
      argFiles.length === 0 &&
      !argv.slice(1).some((a) => SEPARATORS.has(a) || INFO.has(a))
    ) {
      // The commands are read from stdin at run time: data turned into commands.
      ex.flag('pipe_to_shell', inv.text);
    }
    ex.emit(inv);
    return;
  }
  if (dryRun) {
    ex.emit(inv);
    return;
  }
  // parallel joins the command's words with blanks and hands the line to a shell, which re-splits
  // it: `parallel 'rm -rf' ::: build` runs `rm -rf 'build'`. Judge that reading too.
  const readItems = argFiles.length > 0;
  if (command.some((w) => SHELL_SIGNIFICANT.test(w))) joinedJobs(ex, inv, command, items, readItems);
  const jobs = itemsUnresolved ? undefined : knownJobs(argv, i, end, command, items, readItems);
  if (jobs !== undefined) {
    for (const job of jobs) {
      const one: Invocation = {
        ...inv,
        argv: job,
        // Command words keep their flags; an item put in place was a static word.
        unresolved: job.map((_, k) => (k < command.length ? (inv.unresolved[i + k] ?? false) : false)),
      };
      one.via = [...inv.via, 'parallel :::'];
      delete one.stdin;
      ex.resolve(one, env);
    }
    return;
  }
  const unresolved = command.map((w, k) => (inv.unresolved[i + k] ?? false) || PARALLEL_PLACEHOLDER.test(w));
  const next: Invocation = { ...inv, argv: command, unresolved, via: [...inv.via, 'parallel'] };
  delete next.stdin;
  if (!unresolved.some(Boolean)) {
    if (items.length > 0) {
      // Items read from a file stand as one word whose text is not known.
      next.argv = [...command, ...items, ...(readItems ? [PLACEHOLDER] : [])];
      next.unresolved = [...unresolved, ...items.map(() => false), ...(readItems ? [true] : [])];
    } else {
      next.argv = [...command, PLACEHOLDER];
      next.unresolved = [...unresolved, true];
    }
  }
  ex.resolve(next, env);
};

const SHELL_SIGNIFICANT = /[\s;&|<>()$`'"\\]/;

/** A value given to the variables GNU parallel reads its options from (`PARALLEL=` alone clears them). */
const PARALLEL_SETTINGS = /(^|[^\w])PARALLEL(_HOME)?=[^\s;&|)]/;
/** Most jobs a parallel command is walked once each for, its items put in place. */
const MAX_KNOWN_JOBS = 16;
/** Options that change neither the command nor its items (values of -j/--jobs/-P are skipped). */
const PLAIN_OPTIONS = new Set(
  '-j --jobs -P --max-procs -k --keep-order --line-buffer --lb --tag -v --verbose --bar --progress --eta --will-cite --no-notice -u --ungroup --group'.split(
    ' ',
  ),
);
const REPLACEMENTS = /\{(1?)(\.|\/|\/\/|\/\.|#|%)?\}/g;

/**
 * `parallel CMD ::: a b c` with its items on the command line: each job's words, the item put where
 * a replacement string stands (`{}`, `{.}`, `{/}`, …) or added at the end, so that `parallel rm -rf
 * {} ::: /tmp/a` is read as the `rm -rf /tmp/a` it runs. Undefined when the jobs are not all known
 * here: items read at run time, more than one input source, an option that changes the replacement
 * strings or the command line, or too many jobs.
 */
function knownJobs(
  argv: readonly string[],
  from: number,
  end: number,
  command: readonly string[],
  items: readonly string[],
  readItems: boolean,
): string[][] | undefined {
  if (readItems || items.length === 0 || items.length > MAX_KNOWN_JOBS) return undefined;
  if (argv.slice(end).filter((a) => SEPARATORS.has(a)).length !== 1 || argv[end] !== ':::') return undefined;
  for (let k = 1; k < from; k++) {
    const option = (argv[k] as string).replace(/=.*$/, '');
    if (!PLAIN_OPTIONS.has(option)) return undefined;
    if (!(argv[k] as string).includes('=') && PARALLEL_VALUES.has(option)) k++;
  }
  // `{2}` with one input source is replaced by nothing; a perl expression is code.
  if (command.some((w) => w.includes('{=') || /\{\d*[^}\w./#%]/.test(w) || /\{(\d{2,}|[2-9])/.test(w)))
    return undefined;
  const placed = command.some((w) => new RegExp(REPLACEMENTS.source).test(w));
  return items.map((item, n) => {
    if (!placed) return [...command, item];
    const dir = posix.dirname(item);
    const base = posix.basename(item);
    const noExt = (p: string) => p.replace(/\.[^./]*$/, '');
    const value = (kind: string | undefined): string => {
      if (kind === '.') return noExt(item);
      if (kind === '/') return base;
      if (kind === '//') return dir;
      if (kind === '/.') return noExt(base);
      if (kind === '#') return String(n + 1);
      if (kind === '%') return '1';
      return item;
    };
    return command.map((w) => w.replace(REPLACEMENTS, (_m, _one, kind) => value(kind)));
  });
}
const PARALLEL_PLACEHOLDERS = new RegExp(PARALLEL_PLACEHOLDER.source, 'g');

/**
 * The command line parallel gives its shell for each input item (quoted, as parallel quotes it);
 * items read at run time stand as a quoted variable: one word whose text is not known.
 */
function joinedJobs(
  ex: Extractor,
  inv: Invocation,
  command: readonly string[],
  items: readonly string[],
  readItems: boolean,
): void {
  if (inv.unresolved.some(Boolean)) {
    ex.flag('unresolved_code', inv.text);
    return;
  }
  const line = command.join(' ');
  const quote = (item: string) => `'${item.replace(/'/g, `'\\''`)}'`;
  const values = items.slice(0, 20).map(quote);
  if (values.length === 0 || readItems) values.push('"$PARALLEL_ITEM"');
  for (const value of values) {
    const job = PARALLEL_PLACEHOLDER.test(line)
      ? line.replace(PARALLEL_PLACEHOLDERS, value)
      : `${line} ${value}`;
    // A line the shell cannot parse runs nothing (`python -c print("ok")` once the quotes are gone);
    // text over several lines runs line by line, those before the error included.
    if (parses(job)) ex.parseString(job, [...inv.via, 'parallel'], { ifs: ' \t\n' });
    else if (job.includes('\n')) ex.flag('parse_error', job);
  }
}

function parses(line: string): boolean {
  try {
    new Parser(line, createBudget(8, 50)).parseScript();
    return true;
  } catch (error) {
    if (error instanceof ShellSyntaxError) return false;
    throw error;
  }
}

const FIND_VALUES = GLOBAL_VALUE_OPTIONS.find as ReadonlySet<string>;
const EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * `find PATH… EXPRESSION`: each `-exec … ;` / `+` becomes its own command; the find segment keeps
 * the rest of the expression, with primaries as flags and the values of primaries skipped.
 */
export const find: Handler = (ex, inv, env) => {
  const { argv, unresolved } = inv;
  // A clean of compiled files and caches (find-cleanups.ts): the find and the rm it runs remove what
  // is made again, below its start points, as rm -r of build output does.
  const cleanup = findCleanup(ex.res, argv, unresolved);
  const starts = cleanup?.deletes ? cleanup.starts : undefined;
  const removals: ShellSegment[] = [];
  const own: string[] = [argv[0] as string];
  const ownUnresolved: boolean[] = [false];
  let expression = false;
  let i = 1;
  while (i < argv.length) {
    const arg = argv[i] as string;
    if (EXEC.has(arg)) {
      let end = i + 1;
      while (end < argv.length && argv[end] !== ';' && argv[end] !== '+') end++;
      const words = argv.slice(i + 1, end);
      const flags = words.map((w, k) => (unresolved[i + 1 + k] ?? false) || w.includes(PLACEHOLDER));
      own.push(arg);
      ownUnresolved.push(false);
      if (words.length > 0) {
        const next: Invocation = { ...inv, argv: words, unresolved: flags, via: [...inv.via, `find ${arg}`] };
        delete next.stdin;
        const before = ex.segments.length;
        ex.resolve(next, env);
        removals.push(...ex.segments.slice(before).filter((segment) => segment.program === 'rm'));
      }
      i = end + 1;
      continue;
    }
    if (/^[-(!]/.test(arg)) expression = true;
    if (unresolved[i] && (expression || arg === PLACEHOLDER)) {
      // An item filled in by xargs (or a variable in the expression) could be any primary, `-delete` included.
      ex.flag('unresolved_find_expression', inv.text);
    }
    const width = arg === '-fprintf' ? 3 : FIND_VALUES.has(arg) ? 2 : 1;
    for (let k = 0; k < width && i + k < argv.length; k++) {
      own.push(argv[i + k] as string);
      ownUnresolved.push(unresolved[i + k] ?? false);
    }
    i += width;
  }
  ex.emit({ ...inv, argv: own, unresolved: ownUnresolved });
  const found = ex.segments[ex.segments.length - 1] as ShellSegment;
  if (cleanup && !cleanup.deletes) notePrintedClean(found, cleanup);
  if (starts !== undefined) markCleanup([found, ...removals], starts);
};

/** What a find clean's removals (`-delete`, `rm {}`, `xargs -0 rm`) remove lies below its start points. */
function markCleanup(segments: readonly ShellSegment[], starts: readonly string[]): void {
  for (const segment of segments) {
    segment.writes = [...starts];
    segment.writes_unresolved = false;
    markBuildOutputs(segment, starts, { consulted: [], paths: [], removed: [] });
  }
}
