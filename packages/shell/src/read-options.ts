// Which option model reads a command's args: git's global options and then its subcommand's model,
// or the model of a program from program-options.ts. Undefined when the program is not modelled, so
// segment.ts keeps its plain splitting.
import { GIT_SUBCOMMANDS } from './git-options.js';
import { type ParsedOptions, parseOptions } from './option-model.js';
import { GLOBAL_VALUE_OPTIONS } from './options.js';
import { own } from './own.js';
import { expandOldStyle, PROGRAM_OPTIONS, WORD_OPTIONS } from './program-options.js';

const GIT_GLOBAL = GLOBAL_VALUE_OPTIONS.git as ReadonlySet<string>;

/** The args of `program` read by its option model, or undefined when it has none. */
export function readOptions(program: string, args: readonly string[]): ParsedOptions | undefined {
  if (program === 'git') return readGit(args);
  const model = own(PROGRAM_OPTIONS, program);
  if (!model) return undefined;
  const words = own(WORD_OPTIONS, program);
  const argv = expandOldStyle(program, args).map((a) => words?.[a] ?? a);
  return parseOptions(model, argv);
}

/** git's own options (exact names, as git.c reads them), then the subcommand's model. */
function readGit(args: readonly string[]): ParsedOptions | undefined {
  const globals: string[] = [];
  let i = 0;
  while (i < args.length) {
    const arg = args[i] as string;
    if (arg === '--') {
      i++;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    globals.push(arg);
    i += GIT_GLOBAL.has(arg) ? 2 : 1;
  }
  const sub = args[i];
  const model = sub === undefined ? undefined : own(GIT_SUBCOMMANDS, sub.toLowerCase());
  if (sub === undefined || !model) return undefined;
  // `--end-of-options` is git's spelling of `--` for revisions and options alike.
  const rest = args.slice(i + 1).map((a) => (a === '--end-of-options' ? '--' : a));
  const parsed = parseOptions(model, rest);
  const globalFlags = globals.flatMap((g) => (g.includes('=') ? [g, g.slice(0, g.indexOf('='))] : [g]));
  return {
    flags: [...globalFlags, ...parsed.flags],
    positionals: [sub, ...parsed.positionals],
    canonical: parsed.canonical,
    commands: parsed.commands.map((c) => ({ ...c, index: c.index + i + 1 })),
  };
}
