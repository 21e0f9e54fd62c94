// Reading stdin as bytes with a ceiling: one byte past the limit is enough for decodeJson to name
// the input too large, and a huge or endless stream is never buffered whole.
import { readSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';

export async function readInput(stream: Readable, limit: number): Promise<{ bytes: Uint8Array }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(buf);
    size += buf.length;
    if (size > limit) {
      stream.destroy();
      break;
    }
  }
  return { bytes: Buffer.concat(chunks) };
}

/**
 * The same from a file descriptor (fd 0), synchronously: a hook process starts per tool call, and creating
 * process.stdin (a stream, and the stream machinery behind it) is a measurable part of its start.
 * Undefined when fd 0 cannot be read that way (a non-blocking pipe, a closed descriptor).
 */
export function readStdinSync(fd: number, limit: number): { bytes: Uint8Array } | undefined {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(64 * 1024);
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      size += n;
      if (size > limit) break;
    }
  } catch (error) {
    if (
      size === 0 &&
      ['EAGAIN', 'EBADF', 'EINVAL', 'ENXIO'].includes((error as NodeJS.ErrnoException).code ?? '')
    ) {
      return undefined;
    }
    throw error;
  }
  return { bytes: Buffer.concat(chunks) };
}

/**
 * Writes text to a file descriptor (fd 1) synchronously, for the same reason; returns what it could
 * not write (all of it when the descriptor is a non-blocking pipe that is full), for a stream to finish.
 */
export function writeFdSync(fd: number, text: string): string {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
  }
  return bytes.subarray(done).toString();
}
