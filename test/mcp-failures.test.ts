// The proxy against an upstream that misbehaves on purpose (test/fixtures/mcp-flaky-server.mjs) and
// against bad input: a hang meets the deadline, a crash costs one call and the upstream restarts,
// the audit says the upstream failed, progress, cancellation and list changes are forwarded, the
// annotations classify tools no rule names, and malformed requests get named errors.
import { spawnSync } from 'node:child_process';
import {
  CallToolResultSchema,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  connectStdio,
  FLAKY_SERVER,
  factsOf,
  type StdioProxy,
  textOf,
  tollgateMcp,
  type Workspace,
  workspace,
} from './fixtures/mcp-harness.js';

let ws: Workspace;
let proxy: StdioProxy;
const status = { tool: 'status', args: {} };

beforeAll(async () => {
  ws = workspace({ mcp: { call_timeout_ms: 500 } });
  proxy = await connectStdio(ws, ['--session', 'flaky', '--', process.execPath, FLAKY_SERVER]);
});

afterAll(async () => {
  await proxy?.close();
  ws?.cleanup();
});

const call = (name: string, args: Record<string, unknown> = {}) =>
  proxy.client.callTool({ name, arguments: args });
const cancellations = async () => Number(/cancelled: (\d+)/.exec(textOf(await call('cancellations')))?.[1]);

describe('an upstream that hangs or crashes', () => {
  it('answers a hung call at the deadline, tells the upstream to stop, and audits the timeout', async () => {
    const before = await cancellations();
    const started = Date.now();
    const result = await call('hang');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.isError).toBe(true);
    expect(factsOf(result)).toMatchObject({ error: 'upstream_timeout' });
    expect(textOf(result)).toContain('no answer within 500 ms');
    expect(await cancellations()).toBe(before + 1);
    const rows = await auditRows(ws);
    const decision = rows.findLast((r) => r.kind === 'decision' && r.tool === 'hang');
    const outcome = rows.find((r) => r.kind === 'outcome' && r.ref === decision?.id);
    expect(outcome?.result).toMatchObject({
      status: 'timeout',
      summary: expect.stringMatching(/^upstream failed: /),
    });
  });

  it('survives an upstream crash mid-call, audits it, and restarts the upstream for the next call', async () => {
    await call('status');
    const result = await call('crash', {
      tollgate: {
        prediction: {
          claims: [{ subject: status, op: 'contains', value: 'idle' }],
          evidence: [{ source: status, quote: 'state: idle' }],
        },
      },
    });
    expect(result.isError).toBe(true);
    expect(factsOf(result)).toMatchObject({ error: 'upstream_failed' });
    expect(textOf(result)).toMatch(/closed the connection during the call/);
    const rows = await auditRows(ws);
    const decision = rows.findLast((r) => r.kind === 'decision' && r.tool === 'crash');
    expect(decision?.outcome).toBe('dispatch');
    const outcome = rows.find((r) => r.kind === 'outcome' && r.ref === decision?.id);
    expect(outcome?.result).toMatchObject({
      status: 'error',
      summary: expect.stringMatching(/^upstream failed: /),
    });
    expect(textOf(await call('status'))).toBe('state: idle');
  });
});

describe('classification by annotations, when no rule names a tool', () => {
  it('gates a destructive or unannotated tool, and probes a read-only one after dispatch', async () => {
    const refused = await call('set_state', { value: 'busy' });
    expect(factsOf(refused)).toMatchObject({ outcome: 'rejected', rules: ['mcp.annotation.destructive'] });
    expect(factsOf(await call('unannotated'))).toMatchObject({ rules: ['mcp.annotation.destructive'] });

    await call('status');
    const result = await call('set_state', {
      value: 'busy',
      tollgate: {
        prediction: {
          claims: [{ subject: status, op: 'eq', value: 'state: busy' }],
          evidence: [{ source: status, quote: 'state: idle' }],
        },
      },
    });
    expect(textOf(result)).toBe('ok');
    const outcome = (await auditRows(ws)).at(-1);
    expect(outcome).toMatchObject({ kind: 'outcome', tool: 'set_state' });
    expect(outcome?.claims?.map((c) => c.result)).toEqual(['matched']);
  });
});

describe('forwarding', () => {
  it('forwards progress notifications to the client', async () => {
    const seen: number[] = [];
    const result = await proxy.client.callTool({ name: 'slow', arguments: {} }, undefined, {
      onprogress: (p) => seen.push(p.progress),
    });
    expect(textOf(result)).toBe('slow done');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('forwards a cancellation from the client to the upstream', async () => {
    const before = await cancellations();
    const controller = new AbortController();
    const pending = proxy.client.callTool({ name: 'hang', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort('changed my mind'), 100);
    await expect(pending).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 200));
    expect(await cancellations()).toBe(before + 1);
  });

  it("forwards the upstream's tools/list_changed and serves the new tool", async () => {
    let changed = 0;
    proxy.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed++;
    });
    await call('add_tool');
    await new Promise((r) => setTimeout(r, 200));
    expect(changed).toBeGreaterThanOrEqual(1);
    expect((await proxy.client.listTools()).tools.map((t) => t.name)).toContain('extra');
    expect(textOf(await call('extra'))).toContain('no tool extra');
  });
});

describe('bad input', () => {
  it('rejects arguments that are not an object at the protocol level and keeps serving', async () => {
    const bad = proxy.client.request(
      { method: 'tools/call', params: { name: 'status', arguments: [1, 2] as never } },
      CallToolResultSchema,
    );
    await expect(bad).rejects.toThrow(McpError);
    expect(textOf(await call('status'))).toMatch(/^state: /);
  });

  it('decodes a tollgate argument sent as a JSON string, and names one that does not parse', async () => {
    await call('status');
    const decline = {
      decline: {
        irreducible: 'who else uses the state',
        would_change_my_mind: ['an owner list'],
        attempted_observations: [{ source: status }],
      },
    };
    const declined = await call('set_state', { value: 'x', tollgate: JSON.stringify(decline) });
    expect(declined.isError).toBeFalsy();
    expect(factsOf(declined)).toMatchObject({ outcome: 'declined' });
    const broken = await call('set_state', { value: 'x', tollgate: '{"decline": ' });
    expect(factsOf(broken)).toMatchObject({ error: 'invalid_arguments' });
    expect(textOf(broken)).toContain('does not parse');
  });

  it('exits with a clear error when the upstream cannot be started', () => {
    const out = spawnSync(process.execPath, tollgateMcp(['--', '/nonexistent/mcp-server']), {
      cwd: ws.dir,
      env: ws.env,
      input: '',
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/tollgate: cannot start or reach the upstream server/);
  });

  it('exits with a usage error when no upstream is given', () => {
    const out = spawnSync(process.execPath, tollgateMcp([]), {
      cwd: ws.dir,
      env: ws.env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/no upstream given/);
  });
});
