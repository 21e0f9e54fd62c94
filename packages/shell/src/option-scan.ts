// Walking a command's leading options to its first operand — the one loop every wrapper and runner
// (sudo, nice, timeout, ssh, watch, xargs, …) needs: `--` ends the options, the first word that is not
// an option is the operand, and an option that takes a value consumes the next word too.

export interface OptionScan {
  /** Options that consume the following word as their value. */
  values: ReadonlySet<string>;
  /**
   * Sees each option (at argv index `at`) before the default rule applies: return the number of words
   * it takes, 'stop' to abandon the scan (the wrapper runs no command), or undefined for the default.
   */
  visit?: (arg: string, next: string | undefined, at: number) => number | 'stop' | undefined;
  /** Whether a lone `-` is an operand (most tools) or an option (ssh, watch). Default true. */
  loneDashIsOperand?: boolean;
}

/**
 * Index of the first operand in argv (argv[0] is the program), or -1 when `visit` stopped the scan.
 * `from` and `to` bound the words scanned: a command inside a longer argv (tmux's `;`-separated ones).
 */
export function firstOperand(argv: readonly string[], scan: OptionScan, from = 1, to = argv.length): number {
  const loneDash = scan.loneDashIsOperand ?? true;
  let i = from;
  while (i < to) {
    const arg = argv[i] as string;
    if (arg === '--') return i + 1;
    if (!arg.startsWith('-') || (loneDash && arg === '-')) return i;
    const taken = scan.visit?.(arg, argv[i + 1], i);
    if (taken === 'stop') return -1;
    i += taken ?? (takesValue(scan.values, arg) ? 2 : 1);
  }
  return i;
}

/**
 * Whether an option word takes the next word as its value: a listed option, a short cluster ending
 * in one, or (getopt_long accepts unambiguous prefixes) an abbreviation of a listed long option — `sudo --us root`, `timeout --sig KILL`.
 * An abbreviation shared with an unlisted option is ambiguous to the real program, which then runs nothing.
 */
export function takesValue(values: ReadonlySet<string>, arg: string): boolean {
  if (values.has(arg)) return true;
  if (arg.length > 2 && arg[0] === '-' && arg[1] !== '-')
    return clusterValueIndex(values, arg) === arg.length - 1;
  if (!arg.startsWith('--') || arg.length < 3 || arg.includes('=')) return false;
  for (const v of values) if (v.startsWith('--') && v.startsWith(arg)) return true;
  return false;
}

/**
 * In a short cluster (getopt: `env -iC DIR`, `sudo -uroot`), the index of the first letter that takes
 * a value: its value is the rest of the word, or the next word when it is the last letter. -1 when
 * no letter does, or `arg` is not a short cluster.
 */
export function clusterValueIndex(values: ReadonlySet<string>, arg: string): number {
  if (arg.length < 2 || arg[0] !== '-' || arg[1] === '-') return -1;
  for (let k = 1; k < arg.length; k++) if (values.has(`-${arg[k]}`)) return k;
  return -1;
}

/**
 * `arg` read as the long option `--name` (an unambiguous prefix is enough for getopt_long): undefined
 * when it is not, else its inline value (`--comm=x` → 'x') or null when the value is the next word.
 */
export function longOption(arg: string, name: string): string | null | undefined {
  if (!arg.startsWith('--') || arg.length < 3) return undefined;
  const eq = arg.indexOf('=');
  const given = arg.slice(2, eq < 0 ? undefined : eq);
  if (!name.startsWith(given)) return undefined;
  return eq < 0 ? null : arg.slice(eq + 1);
}
