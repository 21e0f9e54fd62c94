// The shape of one CLI subcommand: one file per subcommand under commands/, each a thin translation
// from argv/stdin to a core call and back to stdout and an exit code.
import type { Readable, Writable } from 'node:stream';
import type { AncestorSource } from './person.js';

export interface CommandIO {
  argv: string[];
  stdin: Readable;
  /** Set when stdin is this process's own fd 0 and may be read directly (see readStdinSync). */
  stdinFd?: number;
  /** Set when stdout is this process's own fd 1 and may be written directly (see writeFdSync). */
  stdoutFd?: number;
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * True when a human is at a terminal: both stdin and stderr are TTYs. Operator-only commands
   * (override) require this or an operator token; absent means no.
   */
  interactive?: boolean;
  /**
   * This process's ancestors, for telling a person's terminal from an agent's (person.ts); default
   * /proc. Tests and embedders hand in a chain.
   */
  ancestors?: AncestorSource;
}

export interface Command {
  name: string;
  /** One line for `tollgate --help`. */
  summary: string;
  /** The full `--help` text. */
  usage: string;
  /** Resolves to the process exit code. */
  run(io: CommandIO): Promise<number>;
}

/**
 * A registry entry: the name and summary are known without loading the command, so `tollgate hook`
 * never loads the modules (and their dependencies) of `serve` or `mcp`.
 */
export interface CommandEntry {
  name: string;
  summary: string;
  load: () => Promise<{ command: Command }>;
}
