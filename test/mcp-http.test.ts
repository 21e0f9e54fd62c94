// The proxy serving Streamable HTTP on 127.0.0.1 (a real `tollgate mcp --listen 0` process) in front
// of server-filesystem: each MCP session is its own ledger, a client's _meta correlation id only
// splits its own connection (another client sending the same id cannot borrow it), and malformed
// HTTP requests get JSON-RPC errors without hurting the proxy.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  connectHttp,
  FS_SERVER,
  factsOf,
  type HttpProxy,
  startHttpProxy,
  tollgateCli,
  type Workspace,
  workspace,
} from './fixtures/mcp-harness.js';

let ws: Workspace;
let proxy: HttpProxy;
let file: string;
// A read whose quote is distinctive enough to count as evidence.
const ORIGINAL = 'release 1.3 approved\n';
const clients: Client[] = [];
const read = () => ({ tool: 'read_text_file', args: { path: file } });
const prediction = (content: string) => ({
  claims: [{ subject: read(), op: 'contains', value: content }],
  evidence: [{ source: read(), quote: 'release 1.3 approved' }],
});

beforeAll(async () => {
  ws = workspace();
  file = join(ws.files, 'f.txt');
  writeFileSync(file, ORIGINAL);
  proxy = await startHttpProxy(ws, ['--', process.execPath, FS_SERVER, ws.files]);
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await proxy?.stop();
  ws?.cleanup();
});

function cli(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, tollgateCli(args), { cwd: ws.dir, env: ws.env }, (error, stdout, stderr) => {
      const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });
}

async function client(): Promise<Client> {
  const c = await connectHttp(proxy.url);
  clients.push(c);
  return c;
}

describe('sessions over Streamable HTTP', () => {
  it('keeps each MCP session its own ledger: a read in one is no evidence in another', async () => {
    const a = await client();
    const b = await client();
    await a.callTool({ name: 'read_text_file', arguments: { path: file } });
    const fromB = await b.callTool({
      name: 'write_file',
      arguments: { path: file, content: 'v2\n', tollgate: { prediction: prediction('v2') } },
    });
    expect((factsOf(fromB).reasons as { code: string }[]).map((r) => r.code)).toEqual([
      'evidence_not_observed',
    ]);
    const fromA = await a.callTool({
      name: 'write_file',
      arguments: { path: file, content: 'v2\n', tollgate: { prediction: prediction('v2') } },
    });
    expect(fromA.isError, JSON.stringify(fromA)).toBeFalsy();
    expect(readFileSync(file, 'utf8')).toBe('v2\n');
    const sessions = new Set((await auditRows(ws)).map((r) => r.session));
    expect(sessions.size).toBe(2);
  });

  it("cannot borrow another connection's session by sending its _meta['tollgate/session']", async () => {
    writeFileSync(file, ORIGINAL);
    const meta = { 'tollgate/session': 'agent-42' };
    const a = await client();
    const b = await client();
    await a.callTool({ name: 'read_text_file', arguments: { path: file }, _meta: meta });
    const write = (c: Client, content: string, tollgate?: unknown) =>
      c.callTool({
        name: 'write_file',
        arguments: { path: file, content, ...(tollgate ? { tollgate } : {}) },
        _meta: meta,
      });
    // B names A's correlation id: A's read is no evidence for B.
    const cited = await write(b, 'v3\n', { prediction: prediction('v3') });
    expect(cited.isError).toBe(true);
    expect((factsOf(cited).reasons as { code: string }[]).map((r) => r.code)).toEqual([
      'evidence_not_observed',
    ]);
    // A prediction filed for A's session (here by the CLI, under the session the proxy recorded
    // A's read in) is A's alone: B, sending the same id, finds none; A's next call uses it.
    await a.callTool({ name: 'list_directory', arguments: { path: ws.files }, _meta: meta });
    const rows = await auditRows(ws);
    const sessionA = rows.find((r) => r.tool === 'list_directory')?.session ?? '';
    expect(sessionA).toMatch(/\/agent-42$/);
    expect(sessionA).not.toBe('agent-42');
    const filed = await cli([
      'predict',
      '--session',
      sessionA,
      '--tool',
      'write_file',
      '--args',
      JSON.stringify({ path: file, content: 'v3\n' }),
      '--json-doc',
      JSON.stringify(prediction('v3')),
    ]);
    expect(filed.code, filed.out).toBe(0);
    const borrowed = await write(b, 'v3\n');
    expect(borrowed.isError).toBe(true);
    expect((factsOf(borrowed).reasons as { code: string }[]).map((r) => r.code)).toEqual([
      'prediction_missing',
    ]);
    expect(readFileSync(file, 'utf8')).toBe(ORIGINAL);
    const own = await write(a, 'v3\n');
    expect(own.isError, JSON.stringify(own)).toBeFalsy();
    expect(readFileSync(file, 'utf8')).toBe('v3\n');
    const dispatched = (await auditRows(ws)).findLast((r) => r.outcome === 'dispatch');
    expect(dispatched?.session).toBe(sessionA);
  });

  it('starts a reconnecting client on an empty ledger, whatever _meta id it sends again', async () => {
    writeFileSync(file, ORIGINAL);
    const meta = { 'tollgate/session': 'agent-43' };
    const c = await client();
    await c.callTool({ name: 'read_text_file', arguments: { path: file }, _meta: meta });
    await c.close();
    const d = await client();
    const result = await d.callTool({
      name: 'write_file',
      arguments: { path: file, content: 'v4\n', tollgate: { prediction: prediction('v4') } },
      _meta: meta,
    });
    expect((factsOf(result).reasons as { code: string }[]).map((r) => r.code)).toEqual([
      'evidence_not_observed',
    ]);
  });

  it('names a malformed correlation id', async () => {
    const c = await client();
    const result = await c.callTool({
      name: 'read_text_file',
      arguments: { path: file },
      _meta: { 'tollgate/session': ['x'] },
    });
    expect(result.isError).toBe(true);
    expect(factsOf(result)).toMatchObject({ error: 'invalid_session' });
  });
});

interface Reply {
  status: number;
  body: { error?: { code: number; message: string } };
}

function send(path: string, body: string, headers: Record<string, string> = {}): Promise<Reply> {
  const url = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('bad HTTP requests', () => {
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

  it('answers each with a status and a JSON-RPC error that names the problem', async () => {
    expect(await send('/elsewhere', ping)).toMatchObject({
      status: 404,
      body: { error: { message: expect.stringMatching(/\/mcp/) } },
    });
    expect(await send('/mcp', ping, { host: 'evil.example:80' })).toMatchObject({ status: 403 });
    expect(await send('/mcp', ping, { origin: 'http://evil.example' })).toMatchObject({ status: 403 });
    expect(await send('/mcp', '{"jsonrpc": ')).toMatchObject({
      status: 400,
      body: { error: { code: -32700 } },
    });
    expect(await send('/mcp', ping)).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringMatching(/initialize/) } },
    });
    expect(await send('/mcp', ping, { 'mcp-session-id': 'nope' })).toMatchObject({ status: 404 });
    expect(await send('/mcp', `"${'x'.repeat(5 * 1024 * 1024)}"`)).toMatchObject({ status: 413 });
  });

  it('keeps serving afterwards', async () => {
    const c = await client();
    expect((await c.listTools()).tools.length).toBeGreaterThan(5);
  });
});
