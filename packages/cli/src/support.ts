// What most subcommands share: the --help/--json wrapper that turns every failure into a named
// error and exit 1, the command line given after `--` or by --command, and verdict → exit code.
import type { Call, Directive, Verdict } from '@tollgate/contracts';
import { shellLine } from '@tollgate/hooks';
import { flag, type OptionSpec, option, type ParsedArgs, parseArgs } from './args.js';
import type { Command, CommandIO } from './command.js';
import { fail, UsageError } from './errors.js';
import { subUsage } from './sub-usage.js';

/** DESIGN.md's exit codes; a new outcome without an exit code does not compile. */
export const EXIT: Record<Verdict['outcome'], number> = { pass: 0, dispatch: 0, rejected: 2, declined: 3 };

export function defineCommand(
  def: Omit<Command, 'run'> & { options: OptionSpec; subcommands?: readonly string[] },
  body: (args: ParsedArgs, io: CommandIO) => Promise<number>,
): Command {
  return {
    name: def.name,
    summary: def.summary,
    usage: def.usage,
    async run(io) {
      let json = io.argv.includes('--json');
      try {
        const args = parseArgs(io.argv, def.options, def.name);
        json = flag(args, 'json');
        if (flag(args, 'help')) {
          // `audit list --help` is about list: its part of the usage, else the whole.
          const sub = args.positionals[0];
          const part =
            sub !== undefined && def.subcommands?.includes(sub)
              ? subUsage(def.usage, def.name, sub)
              : undefined;
          io.stdout.write(part ?? `${def.usage.trim()}\n`);
          return 0;
        }
        return await body(args, io);
      } catch (error) {
        return fail(io, error, json);
      }
    },
  };
}

export interface CommandLine {
  /** The command as one string: what is classified and what a prediction binds to. */
  command: string;
  /** The words, when given after `--` (run without a shell); absent for --command (run by /bin/sh -c). */
  argv?: string[];
}

/** The command from `-- CMD...` or `--command STR` (exactly one of them, not empty). */
export function commandLine(args: ParsedArgs, name: string, optionName = 'command'): CommandLine {
  const text = option(args, optionName);
  const rest = args.rest;
  if (text !== undefined && rest !== undefined)
    throw new UsageError(
      `give the command once: either --${optionName} STR or -- CMD...`,
      `drop one of them`,
    );
  if (text !== undefined) {
    if (text.trim() === '')
      throw new UsageError(
        `--${optionName} is empty`,
        `e.g. tollgate ${name} --${optionName} 'git push origin main'`,
      );
    return { command: text };
  }
  if (rest === undefined || rest.length === 0)
    throw new UsageError(`no command given`, `e.g. tollgate ${name} -- git push origin main`);
  if (rest.length === 1 && /\s/.test(rest[0] as string)) return { command: rest[0] as string };
  return { command: shellLine(rest), argv: rest };
}

/** The shell call core judges. cwd stays out of args so a prediction filed in one place binds to the same command run elsewhere in the session. */
export function shellCall(
  command: string,
  session: string,
  agent: string | undefined,
  directive?: Directive,
): Call {
  return {
    tool: 'shell',
    args: { command },
    session,
    ...(agent ? { agent } : {}),
    ...(directive ? { directive } : {}),
  };
}

/**
 * The directive this command carries: --directive TEXT or TOLLGATE_DIRECTIVE (what the agent was
 * told; never evidence), with TOLLGATE_DIRECTIVE_AT (ISO time it was given) so the audit row shows
 * the directive → action latency. Capped at the call schema's bound.
 */
export function directiveFrom(args: ParsedArgs, env: NodeJS.ProcessEnv): Directive | undefined {
  const flagText = option(args, 'directive');
  const text = flagText || env.TOLLGATE_DIRECTIVE;
  if (!text) return undefined;
  const at = env.TOLLGATE_DIRECTIVE_AT;
  const when =
    at !== undefined && Number.isFinite(Date.parse(at)) ? new Date(Date.parse(at)).toISOString() : undefined;
  return {
    text: text.slice(0, 65_536),
    source: flagText ? '--directive' : 'TOLLGATE_DIRECTIVE',
    ...(when !== undefined ? { at: when } : {}),
  };
}

export function agentFrom(args: ParsedArgs, env: NodeJS.ProcessEnv): string | undefined {
  return option(args, 'agent') || env.TOLLGATE_AGENT || undefined;
}

export function writeJson(io: CommandIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value)}\n`);
}
