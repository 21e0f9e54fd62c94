// Fuzzing the MCP proxy's tools/call: the proxy runs in-process (startProxy, stdio downstream over
// in-memory streams, a real SQLite store) in front of test/fixtures/mcp-lookalike-server.mjs, and the
// test speaks raw JSON-RPC to it, so tool names, `arguments` (the `tollgate` envelope included) and
// `_meta` (session and directive keys) can be anything. Properties: every request gets exactly one
// response with its id — a result (content, isError) or a JSON-RPC error with an integer code — and
// no text in it holds a control, bidi or line-separator character; the proxy stays up throughout.
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createGate, loadPolicy, type Store } from '@tollgate/core';
import { type RunningProxy, startProxy } from '@tollgate/mcp';
import { openStore } from '@tollgate/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/gate.js';
import { anyText, forbiddenIn, holds, nastyJson } from './support.js';

const SERVER = join(import.meta.dirname, '..', 'fixtures', 'mcp-lookalike-server.mjs');

let store: Store;
let proxy: RunningProxy;
let toProxy: PassThrough;
const waiting = new Map<number, (message: Record<string, unknown>) => void>();
let nextId = 1;

beforeAll(async () => {
  store = await openStore(join(tempDir('tollgate-fuzz-mcp-'), 'gate.db'));
  toProxy = new PassThrough();
  const fromProxy = new PassThrough();
  let buffered = '';
  fromProxy.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const message = JSON.parse(line) as Record<string, unknown>;
      const resolve = waiting.get(message.id as number);
      if (resolve) {
        waiting.delete(message.id as number);
        resolve({ ...message, raw: line });
      }
    }
  });
  proxy = await startProxy({
    upstream: { command: process.execPath, args: [SERVER] },
    gate: (toolHints) =>
      createGate({ policy: loadPolicy(['builtin:shell', 'builtin:mcp']), store, channel: 'mcp', toolHints }),
    downstream: 'stdio',
    stdio: { stdin: toProxy, stdout: fromProxy },
    callTimeoutMs: 5000,
  });
  await rpc('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'fuzzer', version: '1.0.0' },
  });
  toProxy.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
}, 30_000);

afterAll(async () => {
  await proxy?.close();
  await store?.close();
});

/** One JSON-RPC request; resolves with the response (and its raw line), or rejects after 10 s. */
function rpc(method: string, params: unknown): Promise<Record<string, unknown>> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to ${method} #${id} in 10 s`)), 10_000);
    waiting.set(id, (m) => {
      clearTimeout(timer);
      resolve(m);
    });
    toProxy.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });
}

const prediction = fc.record(
  {
    claims: fc.array(fc.record({ subject: anyText, op: anyText, value: nastyJson }), { maxLength: 2 }),
    evidence: fc.array(fc.record({ source: anyText, quote: anyText }), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
const args = fc.oneof(
  fc.dictionary(anyText, nastyJson, { maxKeys: 3 }),
  fc.record({
    sql: fc.oneof(anyText, fc.constant('DROP TABLE users')),
    tollgate: fc.oneof(prediction, nastyJson),
  }),
  fc.record({ branch: anyText, files: nastyJson, tollgate: fc.record({ prediction }) }),
  nastyJson,
);
const meta = fc.oneof(
  fc.constant(undefined),
  fc.record(
    { 'tollgate/session': fc.oneof(anyText, nastyJson), 'tollgate/directive': fc.oneof(anyText, nastyJson) },
    { requiredKeys: [] },
  ),
  nastyJson,
);
const params = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        name: fc.oneof(
          fc.constantFrom('execute_sql', 'push_files', 'query', 'peek', 'tollgate_rules'),
          anyText,
        ),
        arguments: args,
        _meta: meta,
      },
      { requiredKeys: ['name'] },
    ),
  },
  { weight: 1, arbitrary: nastyJson },
);

describe('fuzz: MCP tools/call', () => {
  it('answers every tools/call with one well-formed response in clean text', async () => {
    await holds(
      'mcp tools/call',
      fc.asyncProperty(params, async (p) => {
        const answer = await rpc('tools/call', p);
        expect(answer.jsonrpc).toBe('2.0');
        if ('error' in answer) {
          const error = answer.error as { code: unknown; message: unknown };
          expect(Number.isInteger(error.code)).toBe(true);
          expect(typeof error.message).toBe('string');
        } else {
          const result = answer.result as { content: unknown; isError?: unknown };
          expect(Array.isArray(result.content)).toBe(true);
          expect([undefined, true, false]).toContain(result.isError);
        }
        const { raw: _raw, ...message } = answer;
        expect(forbiddenIn(message), String(answer.raw).slice(0, 400)).toBeUndefined();
      }),
      120,
    );
    // Still serving after all of it.
    const listed = await rpc('tools/list', {});
    expect((listed.result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
  }, 120_000);
});
