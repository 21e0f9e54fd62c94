// The hook's own entry, bundled as one CommonJS file (dist/hook.cjs): bin/tollgate.js loads it
// through V8's code cache, because a hook process starts on every tool call and compiling the
// bundle was most of its cost.
import { command } from './commands/hook.js';

export function runHook(argv: string[]): Promise<number> {
  return command.run({
    argv,
    // A getter: touching process.stdin creates the stream, which the hook reads around (stdinFd).
    get stdin() {
      return process.stdin;
    },
    stdinFd: 0,
    get stdout() {
      return process.stdout;
    },
    stdoutFd: 1,
    get stderr() {
      return process.stderr;
    },
    env: process.env,
    cwd: process.cwd(),
  });
}
