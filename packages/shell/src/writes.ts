// The files one simple command writes: its redirections, and its operands and option values as
// the program's write model (write-model.ts) reads them, resolved to paths against every
// directory the command may be in. Options are walked with the shared option scanner.
import { posix } from 'node:path';
import { firstOperand } from './option-scan.js';
import { own } from './own.js';
import { PROGRAM_OPTIONS } from './program-options.js';
import type { Resolver } from './resolve.js';
import type { ShellSegment } from './types.js';
import {
  copiedName,
  type Found,
  isRemote,
  type Option,
  type Scanned,
  type WriteModel,
  writeModel,
} from './write-model.js';

export interface WriteSet {
  paths: string[];
  unresolved: boolean;
  /** Those of `paths` whose files are moved away (a move's sources). */
  moved?: string[];
  /** Those of `paths` whose contents are replaced whole (a truncating redirection's target, `ln -f`'s link). */
  replaced?: string[];
  /** Symbolic links the command makes: where (as paths), and to what (null: cannot be told). */
  links?: Array<{ path: string; target: string | null }>;
  /** Trees copied over what is there: each source directory, and where its entries land (Found.mirrors). */
  mirrors?: Array<{ source: string; landing: string }>;
}

/**
 * A written word that starts with the temp directory variable (plain, or `${TMPDIR:-default}`), and
 * holds no other expansion: 1 the default's operator, 2 the default, 3 the rest of the path.
 */
const TEMP_WORD = /^(?:\$TMPDIR(?!\w)|\$\{TMPDIR(?:(:?-)([^}$`]*))?\})((?:\/[^$`]*)?)$/;
/**
 * What `$TMPDIR` or `${TMPDIR:-default}` stands for, given what the temp directory expands to
 * (`temp`: its value, `''` when the environment leaves it unset, null when the command assigned
 * it); null when that cannot be told.
 */
function tempValue(temp: string | null, op: string | undefined, fallback: string | undefined): string | null {
  if (temp === null || op === undefined || temp !== '') return temp;
  // Unset: `:-` gives the default; `-` would give it only if TMPDIR is unset, not set empty.
  return op === ':-' ? (fallback ?? '') : null;
}

const words = (text: string | undefined): ReadonlySet<string> => new Set(text ? text.split(' ') : []);

interface Compiled {
  model: WriteModel;
  values: ReadonlySet<string>;
  targets: ReadonlySet<string>;
  into: ReadonlySet<string>;
  /** Short letters that take a value inside a cluster (`-sSLo FILE`, `-ofile`). */
  letters: ReadonlySet<string>;
  attached: ReadonlySet<string>;
  readOnly: readonly string[];
  allWith: readonly string[];
  /** Target options whose file is replaced whole (WriteModel.replaces). */
  replaces: ReadonlySet<string>;
  keeps: readonly string[];
  /** Every long option name the scan can tell (`--name`), with the name the model spells it by. */
  longs: ReadonlyMap<string, string>;
}

/** Compiled models, per model (a fixed set, so the cache is bounded whatever programs are met). */
const compiled = new Map<WriteModel, Compiled>();

function compile(program: string): Compiled | null {
  const model = writeModel(program);
  if (!model) return null;
  const cached = compiled.get(model);
  if (cached) return cached;
  const values = new Set([...words(model.values), ...words(model.targets), ...words(model.into)]);
  const longs = new Map<string, string>();
  const named = [
    ...values,
    ...words(model.readOnly),
    ...words(model.allWith),
    ...words(model.flags),
    ...words(model.keeps),
  ];
  for (const name of named) if (name.startsWith('--')) longs.set(name, name);
  // A program whose option parser is modelled (GNU getopt_long) is read through it: its aliases
  // and every option it has make an abbreviation resolve, or stay ambiguous, as the program's own.
  const parser = own(PROGRAM_OPTIONS, program);
  if (parser) for (const [name, def] of parser.long) longs.set(`--${name}`, def.sets[0] as string);
  const c: Compiled = {
    model,
    values,
    targets: words(model.targets),
    into: words(model.into),
    letters: new Set([...values].filter((v) => /^-[A-Za-z0-9]$/.test(v)).map((v) => v[1] as string)),
    attached: words(model.attached),
    readOnly: [...words(model.readOnly)],
    allWith: [...words(model.allWith)],
    replaces: words(model.replaces),
    keeps: [...words(model.keeps)],
    longs,
  };
  compiled.set(model, c);
  return c;
}

/**
 * A long option as the model names it: `--target-dir` is `--target-directory`, since getopt_long
 * (and curl, tar, rsync) take any unambiguous prefix. An ambiguous or unknown name stays as written:
 * the program refuses the first, and the second is nothing the model reads.
 */
function longName(written: string, c: Compiled): string {
  const exact = c.longs.get(written);
  if (exact !== undefined || written === '--') return exact ?? written;
  let found: string | undefined;
  for (const [name, canonical] of c.longs) {
    if (!name.startsWith(written)) continue;
    if (found !== undefined && found !== canonical) return written;
    found = canonical;
  }
  return found ?? written;
}

/** Options and operands of argv under a model; GNU tools accept options after operands. */
function scan(argv: readonly string[], c: Compiled): Scanned {
  const options: Option[] = [];
  const operands: number[] = [];
  const seen = new Set<string>();
  let base = 0;
  let at = 1;
  const record = (name: string, value: string | undefined, index: number) => {
    seen.add(name);
    options.push(value === undefined ? { name, at: index } : { name, value, at: index });
  };
  const visit = (arg: string, next: string | undefined): number => {
    const index = base + at;
    let taken = 1;
    if (c.model.modeLike?.test(arg) && operands.length === 0 && !seen.has('mode')) {
      seen.add('mode');
      operands.push(index);
    } else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = longName(eq > 0 ? arg.slice(0, eq) : arg, c);
      if (eq > 0) record(name, arg.slice(eq + 1), index);
      else if (c.values.has(name)) {
        record(name, next, index + 1);
        taken = 2;
      } else record(name, undefined, index);
    } else if (c.values.has(arg)) {
      // Single-dash long options (`-cmd`, `-fprint`) and plain `-o FILE`.
      record(arg, next, index + 1);
      taken = 2;
    } else {
      for (let k = 1; k < arg.length; k++) {
        const letter = arg[k] as string;
        const rest = arg.slice(k + 1);
        if (c.attached.has(letter)) {
          record(`-${letter}`, rest, index);
          break;
        }
        if (c.letters.has(letter)) {
          if (rest !== '') record(`-${letter}`, rest, index);
          else {
            record(`-${letter}`, next, index + 1);
            taken = 2;
          }
          break;
        }
        record(`-${letter}`, undefined, index);
      }
      seen.add(arg);
    }
    at += taken;
    return taken;
  };
  while (base + 1 < argv.length) {
    const view = base === 0 ? argv : [argv[0] as string, ...argv.slice(base + 1)];
    at = 1;
    const i = firstOperand(view, { values: c.values, visit });
    if (i < 0 || i >= view.length) break;
    const index = base + i;
    operands.push(index);
    // After `--`, or when no option follows, every remaining word is an operand.
    if (argv[index - 1] === '--' || !argv.slice(index + 1).some((w) => w.length > 1 && w.startsWith('-'))) {
      for (let k = index + 1; k < argv.length; k++) operands.push(k);
      break;
    }
    base = index;
  }
  operands.sort((a, b) => a - b);
  return { argv, operands, options, has: (name) => seen.has(name) };
}

/** What the model says is written, as words of argv (or defaults). */
function found(s: Scanned, c: Compiled, res: Resolver): Found[] {
  const { model } = c;
  if (c.readOnly.some((o) => s.has(o))) return [];
  const out: Found[] = [];
  for (const o of s.options) {
    if (c.targets.has(o.name) && o.value !== undefined && o.value !== '-')
      out.push({ text: o.value, at: o.at, ...(c.replaces.has(o.name) ? { replaces: true } : {}) });
  }
  if (model.custom) return [...out, ...model.custom(s, res)];
  const ops = s.operands.map((at) => ({ text: s.argv[at] as string, at }));
  const all = c.allWith.some((o) => s.has(o));
  switch (all ? 'all' : (model.operands ?? 'none')) {
    case 'all':
      return [...out, ...ops];
    case 'after-first':
      return [...out, ...ops.slice(1)];
    case 'first':
      return [...out, ...ops.slice(0, 1).filter((f) => f.text !== ':memory:' && f.text !== '')];
    case 'second':
      return [...out, ...ops.slice(1, 2)];
    case 'local-last': {
      const last = ops[ops.length - 1];
      if (ops.length < 2 || !last || isRemote(last.text)) return out;
      if (!c.replaces.has('operands')) return [...out, last];
      // A copy's local destination, or in a directory there the file of each source's name.
      const dir = last.text.replace(/\/+$/, '');
      const into =
        res.isDirectory(last.text) === true
          ? ops.slice(0, -1).flatMap((src) => {
              const name = copiedName(src.text);
              return name ? [{ text: `${dir}/${name}`, at: last.at, from: src.at, replaces: true }] : [];
            })
          : [];
      return [...out, { ...last, replaces: true }, ...into];
    }
    case 'into':
    case 'move':
    case 'link':
      return withBackups(s, [...out, ...into(s, c, ops, res)]);
    default:
      return out;
  }
}

/**
 * cp/mv/ln/install with a backup (`-b`, `--backup[=CONTROL]`, or `-S SUFFIX`, which implies it): an
 * existing destination is moved aside to its name plus the suffix (`~`, or `.~N~` when numbered),
 * a name the suffix chooses (`cp -b -S .json x .claude/settings.local` writes settings.local.json).
 */
function withBackups(s: Scanned, writes: Found[]): Found[] {
  if (!backsUp(s)) return writes;
  const control = s.options.find((o) => o.name === '--backup');
  const suffix = [...s.options]
    .reverse()
    .find((o) => (o.name === '-S' || o.name === '--suffix') && o.value !== undefined);
  const numbered = control?.value !== undefined && /^(t|numbered|nil|existing)$/.test(control.value);
  const ending = suffix?.value ?? '~';
  const backups = writes
    .filter((w) => !w.moved && w.link === undefined)
    .flatMap((w) => [
      { ...w, text: `${w.text.replace(/\/+$/, '')}${ending}`, ...(suffix ? { from: suffix.at } : {}) },
      ...(numbered ? [{ ...w, text: `${w.text.replace(/\/+$/, '')}.~*~` }] : []),
    ]);
  return [...writes, ...backups];
}

/** Whether an existing destination is moved aside first (`-b`, `--backup[=CONTROL]` not none, `-S`). */
function backsUp(s: Scanned): boolean {
  const control = s.options.find((o) => o.name === '--backup');
  const suffix = s.options.some((o) => (o.name === '-S' || o.name === '--suffix') && o.value !== undefined);
  if (!s.has('-b') && control === undefined && !suffix) return false;
  return control?.value !== 'none' && control?.value !== 'off';
}

/** cp/mv/ln/install: the destination, the files it receives when it is a directory, and for mv/ln the sources. */
function into(s: Scanned, c: Compiled, ops: Found[], res: Resolver): Found[] {
  const mode = c.model.operands;
  const target = s.options.find((o) => c.into.has(o.name) && o.value !== undefined);
  let dest: Found | undefined;
  let sources: Found[];
  if (target) {
    dest = { text: target.value as string, at: target.at };
    sources = ops;
  } else if (ops.length >= 2 || mode === 'link') {
    dest = ops.length >= 2 ? ops[ops.length - 1] : { text: '.' };
    sources = ops.length >= 2 ? ops.slice(0, -1) : ops;
  } else return ops.slice(0, 1);
  const noTarget = s.has('-T') || s.has('--no-target-directory');
  const isDirectory = res.isDirectory((dest as Found).text);
  // Into a directory that is there now, only the entries are written, not the directory itself.
  const out: Found[] = isDirectory === true && !noTarget && mode !== 'link' ? [] : [dest as Found];
  const dir =
    !noTarget &&
    (target !== undefined ||
      sources.length > 1 ||
      (dest as Found).text.endsWith('/') ||
      isDirectory !== false);
  if (dir) {
    for (const src of sources) {
      const name = src.text.replace(/\/+$/, '').split('/').pop();
      if (name)
        out.push({
          text: `${(dest as Found).text.replace(/\/+$/, '')}/${name}`,
          at: (dest as Found).at ?? -1,
          ...(src.at !== undefined ? { from: src.at } : {}),
          // A copy's tree merges into one of that name there (`cp -r tpl/src .`).
          ...(src.at !== undefined && mode === 'into' ? { mirrors: src.at } : {}),
        });
    }
  } else if (noTarget && mode === 'into' && sources.length === 1 && sources[0]?.at !== undefined)
    out[0] = { ...(dest as Found), mirrors: sources[0].at };
  // `ln -f` removes a file where each link goes before making it: what the file held is replaced
  // (a directory there is not removed: the link goes into it).
  if (mode === 'link' && (s.has('-f') || s.has('--force')) && !backsUp(s))
    for (const f of out) if (f !== dest || isDirectory !== true) f.replaces = true;
  if (mode === 'move') out.push(...sources.map((src) => ({ ...src, moved: true })));
  if (makesSymlinks(s, c)) markLinks(s, c, out, dest as Found, sources, dir, isDirectory, noTarget);
  if (mode === 'link') {
    // A relative symbolic link points from its own directory (`ln -s ../lib/x.ts src/x.ts` is lib/x.ts);
    // with -r, ln makes it relative from the source as given.
    const relative = (s.has('-s') || s.has('--symbolic')) && !s.has('-r') && !s.has('--relative');
    for (const src of sources) {
      if (!relative || /^[/~$]/.test(src.text)) {
        out.push(src);
        continue;
      }
      // The link is DEST itself, or DEST/NAME where DEST may be a directory: where it points from each.
      const at = src.at !== undefined ? { at: src.at } : {};
      const destText = (dest as Found).text.replace(/\/+$/, '') || '/';
      if (!(dest as Found).text.endsWith('/'))
        out.push({ text: posix.join(posix.dirname(destText), src.text), ...at });
      if (dir) out.push({ text: posix.join(destText, src.text), ...at });
    }
  }
  return out;
}

/** `ln -s`/`--symbolic` (any abbreviation), `cp -s`/`--symbolic-link`: the destinations become symbolic links. */
function makesSymlinks(s: Scanned, c: Compiled): boolean {
  const ln = c.model.operands === 'link';
  // install's -s strips; only cp's makes links.
  if (!ln && c.model !== writeModel('cp')) return false;
  const long = ln ? '--symbolic' : '--symbolic-link';
  if (s.has('-s') || s.has(long)) return true;
  const end = s.argv.indexOf('--');
  return s.argv
    .slice(1, end < 0 ? undefined : end)
    .some((w) => w.length > 3 && long.startsWith(w) && w.startsWith('--sy'));
}

/**
 * Marks the destinations that become links (resolve.ts then follows them in later paths). Only a
 * link whose place is certain and whose target is as given (ln without -r) keeps its target:
 * `ln -s T D` where D may be a directory makes D or D/NAME.
 */
function markLinks(
  s: Scanned,
  c: Compiled,
  out: Found[],
  dest: Found,
  sources: readonly Found[],
  dir: boolean,
  isDirectory: boolean | undefined,
  noTarget: boolean,
): void {
  const asGiven = c.model.operands === 'link' && !s.has('-r') && !s.has('--relative');
  // Certainly into the directory (several sources, -t, an existing directory not replaced by -n).
  const inside =
    dir && (sources.length > 1 || isDirectory === true) && !s.has('-n') && !s.has('--no-dereference');
  const destText = dest.text.replace(/\/+$/, '');
  const single = sources.length === 1 ? sources[0] : undefined;
  const certain = noTarget || (!dir && isDirectory === false) || inside;
  const mark = (f: Found, src: Found | undefined) => {
    f.link = certain && asGiven && src ? src.text : null;
    if (src?.at !== undefined) f.linkFrom = src.at;
  };
  for (const f of out) {
    if (f === dest || f.text === dest.text) {
      if (!inside) mark(f, single);
    } else if (dir && f.from !== undefined && posix.dirname(f.text) === (destText || '/'))
      mark(
        f,
        sources.find((x) => x.at === f.from),
      );
  }
}

const NOTHING: WriteSet = Object.freeze({
  paths: Object.freeze([]) as unknown as string[],
  unresolved: false,
});

/** The files a simple command writes through its program (not its redirections). */
export function programWrites(
  program: string,
  argv: readonly string[],
  unresolved: readonly boolean[],
  res: Resolver,
  temp: string | null,
): WriteSet {
  const c = compile(program);
  if (!c) return NOTHING;
  const s = scan(argv, c);
  const set: WriteSet = { paths: [], unresolved: false };
  const moved: string[] = [];
  const replaced: string[] = [];
  const keeps = c.keeps.some((o) => s.has(o));
  for (const f of found(s, c, res)) {
    // A default or directory (`patch` without a file, `tar -P`): written, but the names under it are unknown.
    if (f.unresolved) set.unresolved = true;
    // `cp dot/$f ~/` writes ~/NAME, NAME unknown: unresolved with the source it comes from.
    const unknown =
      (f.at !== undefined && (unresolved[f.at] ?? false)) ||
      (f.from !== undefined && (unresolved[f.from] ?? false));
    const paths = addPath(set, f.text, unknown, res, temp);
    if (f.moved) moved.push(...paths);
    if (f.replaces && !unknown && !keeps) replaced.push(...paths);
    if (f.mirrors !== undefined && !unknown && !keeps && !unresolved[f.mirrors]) {
      const { paths: sources, unresolved: unsure } = res.paths(argv[f.mirrors] as string);
      const source = sources[0];
      if (!unsure && sources.length === 1 && source !== undefined) {
        set.mirrors ??= [];
        for (const landing of paths) set.mirrors.push({ source, landing });
      }
    }
    if (f.link !== undefined) {
      set.links ??= [];
      const told = !unknown && !(f.linkFrom !== undefined && unresolved[f.linkFrom]);
      for (const path of paths) set.links.push({ path, target: told ? f.link : null });
    }
  }
  if (moved.length > 0) set.moved = moved;
  if (replaced.length > 0) set.replaced = replaced;
  return set;
}

/**
 * Add what a handler finds a segment writes after it was emitted (git's clone directory, ed's `w`):
 * each word resolved as addPath does; `elsewhere` marks that more is written where it cannot be told.
 */
export function addSegmentWrites(
  segment: Pick<ShellSegment, 'writes' | 'writes_unresolved' | 'moves' | 'writes_trees'>,
  words: ReadonlyArray<{ text: string; unresolved: boolean; elsewhere?: boolean; moved?: boolean }>,
  res: Resolver,
  temp: string | null,
): void {
  const set: WriteSet = {
    paths: [...(segment.writes ?? [])],
    unresolved: segment.writes_unresolved ?? false,
  };
  const moved = new Set(segment.moves ?? []);
  for (const w of words) {
    const paths = addPath(set, w.text, w.unresolved, res, temp);
    if (w.moved) for (const path of paths) moved.add(path);
    if (w.elsewhere) set.unresolved = true;
  }
  segment.writes = set.paths;
  segment.writes_unresolved = set.unresolved;
  // What a move takes away is a tree wherever it lands (`git mv notes dist/notes`).
  if (moved.size > 0) {
    segment.moves = [...moved];
    segment.writes_trees = true;
  }
}

/** Add one written word, resolved against the command's directories or marked unresolved; returns its paths. */
export function addPath(
  set: WriteSet,
  text: string,
  unresolved: boolean,
  res: Resolver,
  /** What `$TMPDIR` expanded to where the word was expanded (`''` unset); null when unknown. */
  temp: string | null,
): readonly string[] {
  if (unresolved) {
    // `$TMPDIR/x`: what the environment's TMPDIR gives, unless the command assigned it.
    const m = TEMP_WORD.exec(text);
    const value = m ? tempValue(temp, m[1], m[2]) : null;
    if (m && value !== null) {
      res.noteUse('TMPDIR');
      return addPath(set, `${value}${m[3] ?? ''}`, false, res, temp);
    }
  }
  // A glob the file view could not expand is unknown; without a file view it is as good as any
  // relative name (nothing is resolved then), and stays as written.
  if (unresolved || (res.files && res.isUnresolvedGlob(text))) {
    set.unresolved = true;
    if (!set.paths.includes(text)) set.paths.push(text);
    return [text];
  }
  const { paths, unresolved: unknown } = res.paths(text);
  if (unknown) set.unresolved = true;
  for (const p of paths) if (!set.paths.includes(p)) set.paths.push(p);
  return paths;
}
