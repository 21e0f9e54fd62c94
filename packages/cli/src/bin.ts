// The process entry the bundle starts from: real stdio, exit code through process.exitCode (so
// piped output is flushed before the process ends, never cut by process.exit).
import { main } from './main.js';
import { endQuietlyOnClosedStdout } from './pipe.js';

endQuietlyOnClosedStdout(process);

process.exitCode = await main({
  argv: process.argv.slice(2),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  interactive: process.stdin.isTTY === true && process.stderr.isTTY === true,
}).catch((error: unknown) => {
  process.stderr.write(`tollgate: internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
  return 1;
});
