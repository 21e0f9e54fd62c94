// Reading a JSON request body: content type first (415), then size while streaming (413, before the
// whole body is buffered), then core's decodeJson for UTF-8, depth and syntax (400 with a position).
import type { IncomingMessage } from 'node:http';
import type { HttpBindings } from '@hono/node-server';
import { decodeJson, TollgateFault } from '@tollgate/core';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';
import { errorProblem, httpProblem } from './problem.js';

export type BodyResult = { ok: true; value: unknown } | { ok: false; response: Response };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

export async function readJson(c: Context<AppEnv>, maxBytes: number): Promise<BodyResult> {
  const type = c.req.header('content-type') ?? '';
  if (!JSON_TYPE.test(type)) {
    const detail =
      type === ''
        ? 'no Content-Type was sent'
        : `Content-Type ${JSON.stringify(type.slice(0, 100))} was sent`;
    return {
      ok: false,
      response: httpProblem(c, 'unsupported_media_type', `${detail}; send application/json`),
    };
  }
  try {
    const incoming = (c.env as HttpBindings | undefined)?.incoming;
    const bytes = incoming ? await readNode(incoming, maxBytes) : await readCapped(c.req.raw, maxBytes);
    return { ok: true, value: decodeJson(bytes, { maxBytes }) };
  } catch (error) {
    // The rest of an oversized body is never read, so the connection cannot carry another request.
    if (error instanceof TollgateFault && error.code === 'input_too_large') c.header('connection', 'close');
    return { ok: false, response: errorProblem(c, error) };
  }
}

// On the node server the body is read straight off the socket stream: building a web Request and
// its ReadableStream for every body costs more than the rest of an unmatched check.
async function readNode(incoming: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(incoming.headers['content-length'] ?? Number.NaN);
  if (declared > maxBytes) throw tooLarge(declared, maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge(size, maxBytes);
    chunks.push(chunk);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
}

async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array> {
  const length = request.headers.get('content-length');
  const declared = length === null ? Number.NaN : Number(length);
  if (declared > maxBytes) throw tooLarge(declared, maxBytes);
  // With a length the HTTP parser already bounds the body; only a chunked body is counted as it streams.
  if (!Number.isNaN(declared)) return new Uint8Array(await request.arrayBuffer());
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(size, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

function tooLarge(size: number, maxBytes: number): TollgateFault {
  return new TollgateFault(
    'input_too_large',
    `the body is at least ${size} bytes; the limit is ${maxBytes}`,
    {
      size,
      maxBytes,
    },
  );
}
