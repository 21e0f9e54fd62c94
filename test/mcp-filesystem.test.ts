// The proxy as a real `tollgate mcp` process in front of @modelcontextprotocol/server-filesystem,
// driven by the SDK Client over stdio: refusals leave files untouched, reads are recorded, a
// prediction citing a read dispatches and its claim is matched by the probe, a decline changes
// nothing, and invented, misquoted or stale citations are refused with their reason codes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  connectStdio,
  FS_SERVER,
  factsOf,
  REPO,
  type StdioProxy,
  textOf,
  type Workspace,
  workspace,
} from './fixtures/mcp-harness.js';

let ws: Workspace;
let proxy: StdioProxy;
let notes: string;
let other: string;
const read = (path: string) => ({ tool: 'read_text_file', args: { path } });

beforeAll(async () => {
  ws = workspace();
  notes = join(ws.files, 'notes.txt');
  other = join(ws.files, 'other.txt');
  writeFileSync(notes, 'release 1.3 approved\n');
  writeFileSync(other, 'keep me\n');
  proxy = await connectStdio(ws, ['--session', 'fs-e2e', '--', process.execPath, FS_SERVER, ws.files]);
});

afterAll(async () => {
  await proxy?.close();
  ws?.cleanup();
});

describe('tools/list through the proxy', () => {
  it('adds the tollgate argument to irreversible tools only, and passes the rest verbatim', async () => {
    const { tools } = await proxy.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const gated of ['write_file', 'edit_file', 'move_file']) {
      expect(byName.get(gated)?.inputSchema.properties).toHaveProperty('tollgate');
      expect(byName.get(gated)?.description).toMatch(/Tollgate: .*irreversible/);
    }
    expect(byName.get('tollgate_rules')?.annotations?.readOnlyHint).toBe(true);

    const direct = new Client({ name: 'direct', version: '1' });
    await direct.connect(
      new StdioClientTransport({ command: process.execPath, args: [FS_SERVER, ws.files], stderr: 'ignore' }),
    );
    const upstream = (await direct.listTools()).tools;
    await direct.close();
    for (const tool of upstream.filter((t) => !['write_file', 'edit_file', 'move_file'].includes(t.name))) {
      expect(byName.get(tool.name), tool.name).toEqual(tool);
    }
    const write = upstream.find((t) => t.name === 'write_file');
    expect(byName.get('write_file')?.annotations).toEqual(write?.annotations);
    expect(byName.get('write_file')?.inputSchema.required).toEqual(write?.inputSchema.required);
  });
});

describe('an agent through the proxy', () => {
  it('refuses unguarded write_file and move_file with rails, and leaves the files untouched', async () => {
    const write = await proxy.client.callTool({
      name: 'write_file',
      arguments: { path: notes, content: 'pwned' },
    });
    expect(write.isError).toBe(true);
    expect(write.structuredContent).toBeUndefined();
    expect(textOf(write)).toContain('[prediction_missing]');
    expect(textOf(write)).toContain(`read_text_file {"path":"${notes}"}`);
    expect(factsOf(write)).toMatchObject({ outcome: 'rejected', rules: ['mcp.fs.write'] });

    const move = await proxy.client.callTool({
      name: 'move_file',
      arguments: { source: notes, destination: other },
    });
    expect(move.isError).toBe(true);
    expect(textOf(move)).toContain('get_file_info');
    expect(readFileSync(notes, 'utf8')).toBe('release 1.3 approved\n');
    expect(readFileSync(other, 'utf8')).toBe('keep me\n');
  });

  it('passes a read and records it as an attested observation of the session', async () => {
    const result = await proxy.client.callTool({ name: 'read_text_file', arguments: { path: notes } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('release 1.3 approved\n');
    expect(result.structuredContent).toEqual({ content: 'release 1.3 approved\n' });
    const rows = await auditRows(ws);
    expect(rows.at(-1)).toMatchObject({
      tool: 'read_text_file',
      outcome: 'pass',
      class: 'read-only',
      session: 'fs-e2e',
    });
  });

  it('refuses an invented citation and a misquoted one, naming each', async () => {
    const invented = await proxy.client.callTool({
      name: 'write_file',
      arguments: {
        path: notes,
        content: 'new text 7',
        tollgate: {
          prediction: {
            claims: [{ subject: read(notes), op: 'contains', value: 'new text 7' }],
            evidence: [{ source: read(other), quote: 'keep me' }],
          },
        },
      },
    });
    expect(invented.isError).toBe(true);
    expect((factsOf(invented).reasons as { code: string }[]).map((r) => r.code)).toEqual([
      'evidence_not_observed',
    ]);

    const misquoted = await proxy.client.callTool({
      name: 'write_file',
      arguments: {
        path: notes,
        content: 'new text 7',
        tollgate: {
          prediction: {
            claims: [{ subject: read(notes), op: 'contains', value: 'new text 7' }],
            evidence: [{ source: read(notes), quote: 'release 9.9 approved' }],
          },
        },
      },
    });
    expect((factsOf(misquoted).reasons as { code: string }[]).map((r) => r.code)).toEqual([
      'quote_not_in_observation',
    ]);
    expect(readFileSync(notes, 'utf8')).toBe('release 1.3 approved\n');
  });

  it('refuses a tollgate argument of the wrong shape with schema_invalid', async () => {
    const shapes = [
      'yes please',
      42,
      { prediction: {}, decline: {} },
      { prediction: { claims: 'all good', evidence: [] } },
    ];
    for (const [i, tollgate] of shapes.entries()) {
      // A distinct call each time: the same call refused three times would hit the deny ceiling.
      const args = { path: notes, content: `x${i}`, tollgate };
      const result = await proxy.client.callTool({ name: 'write_file', arguments: args });
      expect(result.isError, JSON.stringify(tollgate)).toBe(true);
      expect((factsOf(result).reasons as { code: string }[])[0]?.code).toBe('schema_invalid');
    }
    expect(readFileSync(notes, 'utf8')).toBe('release 1.3 approved\n');
  });

  it('stops a call refused again and again at the deny ceiling', async () => {
    const args = { path: notes, content: 'again' };
    const codes = [];
    for (let i = 0; i < 4; i++) {
      const result = await proxy.client.callTool({ name: 'write_file', arguments: args });
      codes.push((factsOf(result).reasons as { code: string }[]).map((r) => r.code).join('+'));
    }
    expect(codes).toEqual([
      'prediction_missing',
      'prediction_missing',
      'prediction_missing+deny_ceiling_reached+review_required',
      'deny_ceiling_reached+review_required',
    ]);
  });

  it('dispatches a prediction that cites the read, and the probe matches its claim', async () => {
    const result = await proxy.client.callTool({
      name: 'write_file',
      arguments: {
        path: notes,
        content: 'release 1.4 approved\n',
        tollgate: {
          prediction: {
            claims: [{ subject: read(notes), op: 'contains', value: 'release 1.4 approved' }],
            evidence: [{ source: read(notes), quote: 'release 1.3 approved' }],
            rationale: 'the write replaces 1.3 with 1.4',
          },
        },
      },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('Successfully wrote');
    expect(readFileSync(notes, 'utf8')).toBe('release 1.4 approved\n');
    const rows = await auditRows(ws);
    const decision = rows.findLast((r) => r.kind === 'decision' && r.tool === 'write_file');
    expect(decision).toMatchObject({ outcome: 'dispatch', rules: ['mcp.fs.write'] });
    const outcome = rows.find((r) => r.kind === 'outcome' && r.ref === decision?.id);
    expect(outcome?.result?.status).toBe('ok');
    expect(outcome?.claims).toEqual([
      expect.objectContaining({ result: 'matched', observed: 'release 1.4 approved\n' }),
    ]);
  });

  it('a prediction is single-use: the same envelope again is refused', async () => {
    // The same document for the same call would dispatch it twice; the gate refuses the reuse.
    const rows = await auditRows(ws);
    const used = rows.findLast((r) => r.outcome === 'dispatch');
    expect(used?.prediction).toBeDefined();
    const again = await proxy.client.callTool({
      name: 'write_file',
      arguments: {
        path: notes,
        content: 'release 1.4 approved\n',
        tollgate: { prediction: used?.prediction },
      },
    });
    expect(again.isError).toBe(true);
  });

  it('records a decline as a success and moves nothing', async () => {
    await proxy.client.callTool({ name: 'get_file_info', arguments: { path: other } });
    const result = await proxy.client.callTool({
      name: 'move_file',
      arguments: {
        source: notes,
        destination: other,
        tollgate: {
          decline: {
            irreducible: 'I cannot tell whether anyone still needs other.txt',
            would_change_my_mind: ['the owner says other.txt may be replaced'],
            attempted_observations: [{ source: { tool: 'get_file_info', args: { path: other } } }],
          },
        },
      },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/recorded your decline .* move_file was not called and nothing changed/);
    expect(result.structuredContent).toMatchObject({ tollgate: { outcome: 'declined' } });
    expect(readFileSync(notes, 'utf8')).toBe('release 1.4 approved\n');
    expect(readFileSync(other, 'utf8')).toBe('keep me\n');
    expect((await auditRows(ws)).at(-1)).toMatchObject({ tool: 'move_file', outcome: 'declined' });
  });

  it('answers malformed arguments with a precise error and an unknown tool with a protocol error', async () => {
    const missing = await proxy.client.callTool({ name: 'write_file', arguments: { path: 42 } });
    expect(missing.isError).toBe(true);
    expect(factsOf(missing)).toMatchObject({ error: 'invalid_arguments' });
    expect(textOf(missing)).toContain('missing the required field "content"');
    expect(textOf(missing)).toContain('/path must be of type string');

    const unknown = proxy.client.callTool({ name: 'rm_rf', arguments: {} });
    await expect(unknown).rejects.toThrow(McpError);
    await expect(unknown).rejects.toThrow(/unknown tool "rm_rf"; this server has: .*write_file/);
    // The code is said once: "MCP error -32602: unknown tool …", never "MCP error -32602: MCP error -32602: …".
    await expect(unknown).rejects.toThrow(/^MCP error -32602: unknown tool/);
    // Still serving.
    expect(textOf(await proxy.client.callTool({ name: 'read_text_file', arguments: { path: other } }))).toBe(
      'keep me\n',
    );
  });

  it('explains itself through tollgate_rules', async () => {
    const all = textOf(await proxy.client.callTool({ name: 'tollgate_rules', arguments: {} }));
    expect(all).toContain('[mcp.fs.write] writing a file replaces its previous contents');
    expect(all).toMatch(/Reads .*read_text_file/);
    const one = await proxy.client.callTool({ name: 'tollgate_rules', arguments: { tool: 'nope' } });
    expect(one.isError).toBe(true);
  });
});

describe('stale evidence', () => {
  let stale: Workspace;
  let p: StdioProxy;
  beforeAll(async () => {
    stale = workspace({ policies: [join(REPO, 'test/fixtures/mcp-stale.policy.yaml')] });
    writeFileSync(join(stale.files, 'a.txt'), 'release v1 approved\n');
    p = await connectStdio(stale, ['--session', 'stale', '--', process.execPath, FS_SERVER, stale.files]);
  });
  afterAll(async () => {
    await p?.close();
    stale?.cleanup();
  });

  it('refuses a citation older than the rule allows with evidence_stale', async () => {
    const path = join(stale.files, 'a.txt');
    await p.client.callTool({ name: 'read_text_file', arguments: { path } });
    await new Promise((r) => setTimeout(r, 1600));
    const result = await p.client.callTool({
      name: 'write_file',
      arguments: {
        path,
        content: 'v2\n',
        tollgate: {
          prediction: {
            claims: [{ subject: read(path), op: 'contains', value: 'v2' }],
            evidence: [{ source: read(path), quote: 'release v1 approved' }],
          },
        },
      },
    });
    expect(result.isError).toBe(true);
    expect((factsOf(result).reasons as { code: string }[]).map((r) => r.code)).toEqual(['evidence_stale']);
    expect(readFileSync(path, 'utf8')).toBe('release v1 approved\n');
  });
});
