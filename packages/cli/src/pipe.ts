// A reader that stops early (`tollgate audit list | head -1`) closes the pipe under stdout: the next
// write fails with EPIPE. That is the reader saying "enough", not a failure: the command ends there,
// quietly, with status 0 (as `yes | head -1` does), instead of an unhandled error's stack trace.

interface ProcessLike {
  stdout: NodeJS.EventEmitter;
  exit(code?: number): never;
}

export function endQuietlyOnClosedStdout(proc: ProcessLike): void {
  proc.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') proc.exit(0);
    // Anything else on stdout is a real fault: surface it as an uncaught error would be.
    throw error;
  });
}
