// A request body read as JSON with a size bound: the only body the proxy parses itself (the first
// initialize of a session); later requests are parsed by the SDK transport.
import type { IncomingMessage } from 'node:http';

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export type Body = { ok: true; value: unknown } | { ok: false; status: number; message: string };

export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit)
      return { ok: false, status: 413, message: `request body is larger than ${limit} bytes` };
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return {
      ok: false,
      status: 400,
      message: `parse error: the body is not JSON (${(error as Error).message})`,
    };
  }
}
