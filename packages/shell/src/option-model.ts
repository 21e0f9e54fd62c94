// A program's options as its own parser reads them, so rules match what the program will do and not
// how it was spelled. One small declarative model per program (or git subcommand) turns argv into
// canonical options: an unambiguous prefix of a long option is that option (GNU getopt_long and git's
// parse-options both accept `--rec` for `--recursive`), short flags bundle (`-rf`), `--opt=value` and
// `--opt value` both carry a value, `--` ends the options, and where the parser allows it `--no-X`
// negates X (the last one wins). Options whose value is a command are reported so it can be judged.

/** How an option takes a value. */
type Arity = 'none' | 'required' | 'optional';

interface OptionDef {
  /** The canonical names this option sets: `--recursive`, or `-i` for a short-only option. */
  sets: readonly string[];
  arity: Arity;
  /** The value is a command the program runs (through a shell or split into words). */
  command: boolean;
  /**
   * A short letter standing for several options (`branch -D`): its own setting, which a negation of
   * one part does not undo (`-D --no-force` still force-deletes).
   */
  sticky?: boolean;
}

export interface OptionModel {
  long: ReadonlyMap<string, OptionDef>;
  short: ReadonlyMap<string, OptionDef>;
  /** `--no-X` negates any long option X (git's parse-options). */
  negatable: boolean;
  /** Options may follow operands (GNU permutation); false stops at the first operand. */
  permute: boolean;
}

/**
 * Compile a model from a compact description: space-separated entries, each a `|`-separated list of
 * names (single letters are short options, longer words long options, the first long name is the
 * canonical one), optionally followed by `=` (takes a value), `?` (optional value, attached only) or
 * `!` (takes a value that is a command). `D:delete+force` makes a short letter set several options.
 */
export function optionModel(
  text: string,
  opts: { negatable?: boolean; permute?: boolean } = {},
): OptionModel {
  return new DescribedModel(text, opts.negatable ?? false, opts.permute ?? true);
}

/**
 * A model kept as its description until a command first uses it. The hook runs from a start-up
 * snapshot, and every object in it is deserialised by every hook process: the hundred-odd models
 * built eagerly were ~10,000 objects, of which one call reads one or two.
 */
class DescribedModel implements OptionModel {
  #maps: { long: Map<string, OptionDef>; short: Map<string, OptionDef> } | undefined;
  readonly #text: string;
  readonly negatable: boolean;
  readonly permute: boolean;

  constructor(text: string, negatable: boolean, permute: boolean) {
    this.#text = text;
    this.negatable = negatable;
    this.permute = permute;
  }

  get long(): ReadonlyMap<string, OptionDef> {
    this.#maps ??= optionMaps(this.#text);
    return this.#maps.long;
  }

  get short(): ReadonlyMap<string, OptionDef> {
    this.#maps ??= optionMaps(this.#text);
    return this.#maps.short;
  }
}

function optionMaps(text: string): { long: Map<string, OptionDef>; short: Map<string, OptionDef> } {
  const long = new Map<string, OptionDef>();
  const short = new Map<string, OptionDef>();
  for (const entry of text.split(/\s+/).filter(Boolean)) {
    const colon = entry.indexOf(':');
    if (colon === 1) {
      const sets = entry
        .slice(2)
        .split('+')
        .map((n) => `--${n}`);
      short.set(entry[0] as string, { sets, arity: 'none', command: false, sticky: true });
      continue;
    }
    const suffix = /[=?!]$/.exec(entry)?.[0];
    const names = (suffix ? entry.slice(0, -1) : entry).split('|');
    const arity: Arity = suffix === '?' ? 'optional' : suffix ? 'required' : 'none';
    const longs = names.filter((n) => n.length > 1);
    const shorts = names.filter((n) => n.length === 1);
    const canonical = longs[0] !== undefined ? `--${longs[0]}` : `-${shorts[0]}`;
    const def: OptionDef = { sets: [canonical], arity, command: suffix === '!' };
    for (const n of longs) long.set(n, def);
    for (const n of shorts) short.set(n, def);
  }
  return { long, short };
}

export interface ParsedOptions {
  /** Option words as written, clusters split (`-rf` → `-rf`, `-r`, `-f`), `--x=v` also as `--x`. */
  flags: string[];
  /** Operands: option values removed, everything after `--`. */
  positionals: string[];
  /** The options in effect, by canonical name, each also as `--name=value` when it has a value. */
  canonical: string[];
  /** Values of options that are commands the program runs, with the option's canonical name. */
  commands: Array<{ option: string; value: string; index: number }>;
}

/** Read args (argv without the program) the way the program's option parser does. */
export function parseOptions(model: OptionModel, args: readonly string[]): ParsedOptions {
  const out: ParsedOptions = { flags: [], positionals: [], canonical: [], commands: [] };
  const state = new Map<string, string[]>();
  const sticky = new Set<string>();
  const set = (name: string, value?: string) => {
    if (model.negatable) state.delete(negated(name));
    const values = state.get(name) ?? [];
    if (value !== undefined) values.push(value);
    state.set(name, values);
  };
  const take = (def: OptionDef, value: string | undefined, index: number) => {
    for (const name of def.sets) {
      if (def.sticky) sticky.add(name);
      else set(name, value);
    }
    if (def.command && value !== undefined)
      out.commands.push({ option: def.sets[0] as string, value, index });
  };
  let stopped = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (stopped) {
      out.positionals.push(arg);
    } else if (arg === '--') {
      stopped = true;
    } else if (arg.startsWith('--')) {
      out.flags.push(arg);
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      if (eq > 2) out.flags.push(arg.slice(0, eq));
      const inline = eq < 0 ? undefined : arg.slice(eq + 1);
      const match = resolveLong(model, name);
      if (match.kind === 'unknown') {
        set(`--${name}`, inline);
        continue;
      }
      if (match.kind === 'negated') {
        for (const def of match.defs) {
          for (const n of def.sets) {
            state.delete(n);
            state.set(negated(n), []);
          }
        }
        continue;
      }
      // Ambiguous abbreviations make the program fail; every candidate is recorded so no reading is lost.
      const needsNext =
        match.defs.length === 1 && match.defs[0]?.arity === 'required' && inline === undefined;
      const value = needsNext ? args[i + 1] : inline;
      for (const def of match.defs) take(def, value, needsNext ? i + 1 : i);
      if (needsNext) i++;
    } else if (arg.length > 1 && arg[0] === '-') {
      out.flags.push(arg);
      i += shortCluster(model, arg, args[i + 1], i, out, take);
    } else {
      out.positionals.push(arg);
      if (!model.permute) stopped = true;
    }
  }
  for (const [name, values] of state) {
    out.canonical.push(name);
    for (const v of values) out.canonical.push(`${name}=${v}`);
  }
  for (const name of sticky) if (!state.has(name)) out.canonical.push(name);
  return out;
}

/** A short cluster (`-rf`, `-mMSG`, `-m MSG`); returns how many following words it consumed. */
function shortCluster(
  model: OptionModel,
  arg: string,
  next: string | undefined,
  index: number,
  out: ParsedOptions,
  take: (def: OptionDef, value: string | undefined, index: number) => void,
): number {
  for (let k = 1; k < arg.length; k++) {
    const c = arg[k] as string;
    if (arg.length > 2) out.flags.push(`-${c}`);
    const def = model.short.get(c);
    if (!def) {
      take({ sets: [`-${c}`], arity: 'none', command: false }, undefined, index);
      continue;
    }
    if (def.arity === 'none') {
      take(def, undefined, index);
      continue;
    }
    const rest = arg.slice(k + 1);
    if (rest !== '' || def.arity === 'optional') {
      take(def, rest === '' ? undefined : rest, index);
      return 0;
    }
    take(def, next, index + 1);
    return next === undefined ? 0 : 1;
  }
  return 0;
}

type LongMatch =
  | { kind: 'unknown' }
  | { kind: 'set'; defs: OptionDef[] }
  | { kind: 'negated'; defs: OptionDef[] };

/** Exact name first, then every option the name is an unambiguous (or ambiguous) prefix of. */
function resolveLong(model: OptionModel, name: string): LongMatch {
  const exact = model.long.get(name);
  if (exact) return { kind: 'set', defs: [exact] };
  if (model.negatable && name.startsWith('no-')) {
    const base = name.slice(3);
    const positive = model.long.get(base);
    if (positive) return { kind: 'negated', defs: [positive] };
  }
  const defs = prefixed(model, name);
  if (model.negatable && name.startsWith('no-') && name.length > 3) {
    const negatedDefs = prefixed(model, name.slice(3));
    if (negatedDefs.length > 0 && defs.length === 0) return { kind: 'negated', defs: negatedDefs };
    // `--no-f` could be an abbreviation of a `no-…` option or a negation: both readings are kept.
    defs.push(...negatedDefs);
  }
  if (model.negatable && name.length > 0 && 'no-'.startsWith(name)) return { kind: 'unknown' };
  return defs.length === 0 ? { kind: 'unknown' } : { kind: 'set', defs };
}

function prefixed(model: OptionModel, name: string): OptionDef[] {
  if (name === '') return [];
  const found = new Set<OptionDef>();
  for (const [long, def] of model.long) if (long.startsWith(name)) found.add(def);
  return [...found];
}

function negated(name: string): string {
  return name.startsWith('--no-') ? `--${name.slice(5)}` : `--no-${name.slice(2)}`;
}
