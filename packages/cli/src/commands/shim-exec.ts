// `tollgate shim exec --real P --dir D NAME -- ARGS`: what a wrapper runs. The call is judged as the
// person typed it (`git push --force origin main`, with the program's plain name, so a prediction
// filed with `tollgate predict --for` binds); the real program runs only on pass or dispatch, with
// the terminal left to it, then the outcome is recorded and probed as tollgate run does.

import { shellLine } from '@tollgate/hooks';
import { option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { completeDispatch, printClaims, printOverride, tracked } from '../dispatch-outcome.js';
import { recordViaSelf } from '../dispatch-via.js';
import { UsageError } from '../errors.js';
import { execCommand } from '../exec.js';
import { isExecutableFile, isShimFile, PROGRAM_NAME, realProgram } from '../real-program.js';
import { openRuntime, sessionFrom } from '../runtime.js';
import { projectStateDir } from '../state.js';
import { agentFrom, directiveFrom, EXIT, shellCall } from '../support.js';
import { printVerdict } from './verdict-text.js';

export async function shimExec(args: ParsedArgs, dir: string, io: CommandIO): Promise<number> {
  const name = args.positionals[1];
  if (name === undefined || !PROGRAM_NAME.test(name) || args.positionals.length > 2)
    throw new UsageError('shim exec takes one program name', 'this runs from a wrapper; reinstall it');
  const real = realFor(name, option(args, 'real'), dir, io);
  if (real === undefined) {
    io.stderr.write(`tollgate: shim ${name}: no real ${name} on PATH outside ${dir}; nothing ran\n`);
    return 127;
  }
  const argv = [name, ...(args.rest ?? [])];
  const command = shellLine(argv);
  const session = sessionFrom(undefined, io.env);
  const runtime = await openRuntime({ cwd: io.cwd, env: io.env, channel: 'cli' });
  try {
    const verdict = await runtime.gate.check(
      shellCall(command, session, agentFrom(args, io.env), directiveFrom(args, io.env)),
    );
    if (verdict.outcome !== 'pass' && verdict.outcome !== 'dispatch') {
      // The program's stdout belongs to the program: everything tollgate says goes to stderr.
      printVerdict({ ...io, stdout: io.stderr }, verdict, command);
      return EXIT[verdict.outcome];
    }
    if (verdict.override !== undefined) printOverride(io, verdict);
    // The git pre-push hook looks for this dispatch row (and claims it): it must be in the store first.
    if (verdict.outcome === 'dispatch') await runtime.gate.flush();
    // ... and it takes it only under this process: another terminal's push of the same refs does not.
    recordViaSelf(projectStateDir(runtime.loaded.root, io.env), verdict);
    // Ctrl-C and Ctrl-\ reach the program too (same process group): wait for it, record, then exit.
    const ignore = () => {};
    process.on('SIGINT', ignore);
    process.on('SIGQUIT', ignore);
    const result = await execCommand({ command, argv }, io.cwd, io.env, undefined, {
      file: real,
      inherit: true,
    });
    process.off('SIGINT', ignore);
    process.off('SIGQUIT', ignore);
    if (result.spawnError !== undefined)
      io.stderr.write(`tollgate: shim ${name}: could not run ${real}: ${result.spawnError}\n`);
    if (tracked(verdict))
      printClaims(io, verdict, await completeDispatch(runtime, verdict, result, session, io));
    return result.code;
  } finally {
    await runtime.close();
  }
}

/** The pinned real program while it is still a real program; else looked up again on PATH without shims. */
function realFor(name: string, pinned: string | undefined, dir: string, io: CommandIO): string | undefined {
  if (pinned !== undefined && isExecutableFile(pinned) && !isShimFile(pinned)) return pinned;
  const found = realProgram(name, io.env.PATH, [dir]);
  if (found !== undefined)
    io.stderr.write(
      `tollgate: shim ${name}: the pinned ${pinned ?? '(none)'} is gone; using ${found} (tollgate shim install ${name} pins it again)\n`,
    );
  return found;
}
