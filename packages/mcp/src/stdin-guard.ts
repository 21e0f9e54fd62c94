// Answers what the SDK's stdio transport would drop without a word: a line that is not JSON, or not a
// JSON-RPC message the SDK accepts (a tools/call whose `_meta` is null, say), gets a JSON-RPC error at
// once (-32700 parse error, -32600 invalid request) instead of no answer, which would leave the client
// waiting for ever (found by test/fuzz/mcp.test.ts). Valid lines pass through unchanged, split as the
// SDK splits them (on \n, a trailing \r dropped).

import { type Readable, Transform, type Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

export function guardedStdin(stdin: Readable, stdout: Writable): Readable {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      rest += decoder.write(chunk);
      for (let nl = rest.indexOf('\n'); nl >= 0; nl = rest.indexOf('\n')) {
        const line = rest.slice(0, nl + 1);
        rest = rest.slice(nl + 1);
        const refusal = refusalOf(line.replace(/\r?\n$/, ''));
        if (refusal === undefined) this.push(line);
        else if (refusal !== null) stdout.write(`${JSON.stringify(refusal)}\n`);
      }
      done();
    },
    flush(done) {
      rest += decoder.end();
      if (rest !== '') this.push(rest);
      done();
    },
  });
  stdin.on('error', (error) => guard.destroy(error));
  return stdin.pipe(guard);
}

/** undefined: pass the line on; null: drop it unanswered (a blank line, an invalid notification). */
function refusalOf(line: string): Record<string, unknown> | null | undefined {
  if (line.trim() === '') return null;
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch {
    return rpcError(null, -32700, 'Parse error: the line is not JSON');
  }
  if (JSONRPCMessageSchema.safeParse(doc).success) return undefined;
  const id = (doc as { id?: unknown } | null)?.id;
  const usable = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
  // A message without an id is a notification: JSON-RPC answers none, even an invalid one.
  if (!usable && doc !== null && typeof doc === 'object' && !('id' in doc)) return null;
  return rpcError(usable ? id : null, -32600, 'Invalid Request: not a JSON-RPC message this server accepts');
}

function rpcError(id: string | number | null, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}
