// Reading stdin as bytes with a ceiling: one byte past the limit is enough for decodeJson to name
// the input too large, and a huge or endless stream is never buffered whole.
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
