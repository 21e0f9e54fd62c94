// The stdio guard: lines the SDK would drop unanswered get a JSON-RPC error; valid ones pass intact,
// however the bytes are chunked.
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { guardedStdin } from './stdin-guard.js';

async function through(chunks: (string | Buffer)[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  const passed: string[] = [];
  const answered: string[] = [];
  const guarded = guardedStdin(input, output);
  guarded.on('data', (c: Buffer) => passed.push(c.toString('utf8')));
  output.on('data', (c: Buffer) => answered.push(c.toString('utf8')));
  for (const c of chunks) input.write(c);
  input.end();
  await new Promise((resolve) => guarded.once('end', resolve));
  return {
    passed: passed.join(''),
    answered: answered
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  };
}

it('passes valid messages on unchanged, even split inside a character', async () => {
  const line = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'é' } })}\n`;
  const bytes = Buffer.from(line + line, 'utf8');
  const cut = bytes.indexOf(0xc3) + 1;
  const { passed, answered } = await through([bytes.subarray(0, cut), bytes.subarray(cut)]);
  expect(passed).toBe(line + line);
  expect(answered).toEqual([]);
});

it('answers a line that is not JSON and a request the SDK would drop, and keeps going', async () => {
  const bad = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x', _meta: null } };
  const good = `${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' })}\n`;
  const { passed, answered } = await through(['not json\n', `${JSON.stringify(bad)}\r\n`, '\n', good]);
  expect(answered).toEqual([
    { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('Parse error') } },
    { jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringContaining('Invalid Request') } },
  ]);
  expect(passed).toBe(good);
});

it('drops an invalid notification without an answer, as JSON-RPC says', async () => {
  const { passed, answered } = await through([`${JSON.stringify({ jsonrpc: '2.0', method: 5 })}\n`]);
  expect(answered).toEqual([]);
  expect(passed).toBe('');
});
