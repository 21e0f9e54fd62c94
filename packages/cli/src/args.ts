// A small argv parser: declared options only, `--name value` and `--name=value`, repeatable options,
// and everything after `--` kept verbatim as the command. Unknown options are usage errors that name
// the option and point at --help.
import { UsageError } from './errors.js';

export type OptionKind = 'boolean' | 'string' | 'list';
export type OptionSpec = Record<string, OptionKind>;

export interface ParsedArgs {
  options: Map<string, string | boolean | string[]>;
  positionals: string[];
  /** The words after `--`, when there was a `--`. */
  rest?: string[];
  /** Option order as given, for options whose pairing matters (--claim/--op/--value). */
  sequence: { name: string; value: string }[];
}

/** Options every command accepts. */
export const COMMON: OptionSpec = { help: 'boolean', json: 'boolean' };

export function parseArgs(argv: readonly string[], spec: OptionSpec, command: string): ParsedArgs {
  const all: OptionSpec = { ...COMMON, ...spec };
  const parsed: ParsedArgs = { options: new Map(), positionals: [], sequence: [] };
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') {
      parsed.rest = argv.slice(i + 1);
      break;
    }
    if (word === '-h') {
      parsed.options.set('help', true);
      continue;
    }
    if (!word.startsWith('--') || word.length === 2) {
      parsed.positionals.push(word);
      continue;
    }
    const eq = word.indexOf('=');
    const name = word.slice(2, eq === -1 ? undefined : eq);
    const kind = all[name];
    if (kind === undefined) {
      throw new UsageError(
        `unknown option --${name} for tollgate ${command}`,
        `see tollgate ${command} --help`,
      );
    }
    if (kind === 'boolean') {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`, `write --${name} alone`);
      parsed.options.set(name, true);
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = word.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined) throw new UsageError(`--${name} needs a value`, `write --${name} VALUE`);
    parsed.sequence.push({ name, value });
    if (kind === 'list') {
      const list = parsed.options.get(name);
      parsed.options.set(name, [...(Array.isArray(list) ? list : []), value]);
    } else {
      if (parsed.options.has(name)) throw new UsageError(`--${name} given twice`, `give --${name} once`);
      parsed.options.set(name, value);
    }
  }
  return parsed;
}

export function flag(args: ParsedArgs, name: string): boolean {
  return args.options.get(name) === true;
}

export function option(args: ParsedArgs, name: string): string | undefined {
  const value = args.options.get(name);
  return typeof value === 'string' ? value : undefined;
}

export function list(args: ParsedArgs, name: string): string[] {
  const value = args.options.get(name);
  return Array.isArray(value) ? value : [];
}

/** Integer option with bounds, or a usage error naming the bad value. */
export function intOption(args: ParsedArgs, name: string, min: number): number | undefined {
  const raw = option(args, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new UsageError(
      `--${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`,
      `e.g. --${name} ${min}`,
    );
  }
  return n;
}
