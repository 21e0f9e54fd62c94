// The remediation gate through the real MCP proxy (`tollgate mcp`) in front of a small QA server:
// the certifier is refused after a CONDITIONAL diagnostic, passes after a remediation, passes at the
// cycle cap, and three refusals escalate to a person. A `_meta["tollgate/directive"]` rides on the
// decision row with its latency. Observe mode logs would-rejects only for what enforce refuses.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  auditRows,
  connectStdio,
  REPO,
  type StdioProxy,
  textOf,
  type Workspace,
  workspace,
} from './fixtures/mcp-harness.js';

const SERVER = join(REPO, 'test/fixtures/mcp-memo-server.mjs');
const POLICY = join(REPO, 'contracts/policies/examples/remediation-gate.yaml');

let ws: Workspace | undefined;
let proxy: StdioProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  ws?.cleanup();
  proxy = undefined;
  ws = undefined;
});

async function start(mode: 'enforce' | 'observe' = 'enforce') {
  ws = workspace({ policies: [POLICY], mode });
  proxy = await connectStdio(ws, ['--session', 'qa', '--', process.execPath, SERVER]);
  return proxy.client;
}

type Client = Awaited<ReturnType<typeof start>>;
const diagnose = (c: Client, report: object) =>
  c.callTool({ name: 'run_memo_qa_diagnostic', arguments: { memo: 'm1', report } });
const certify = (c: Client, meta?: Record<string, unknown>) =>
  c.callTool({ name: 'run_memo_qa_certifier', arguments: { memo: 'm1' }, ...(meta ? { _meta: meta } : {}) });

describe('the remediation gate through the MCP proxy', () => {
  it('refuses after CONDITIONAL, passes after a remediation, and at the cycle cap', async () => {
    const c = await start();
    await diagnose(c, { outcome: 'CONDITIONAL', qa_cycle: { current_cycle: 1, max_cycles: 3 } });
    const refused = await certify(c);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('precondition_unmet');
    expect(textOf(refused)).toContain('call run_memo_remediation_writer');

    await c.callTool({ name: 'run_memo_remediation_writer', arguments: { memo: 'm1' } });
    const passed = await certify(c);
    expect(passed.isError).toBeFalsy();
    expect(textOf(passed)).toContain('certified m1');

    await diagnose(c, { outcome: 'CONDITIONAL', qa_cycle: { current_cycle: 2, max_cycles: 3 } });
    expect((await certify(c)).isError).toBe(true);
    await diagnose(c, { outcome: 'CONDITIONAL', qa_cycle: { current_cycle: 3, max_cycles: 3 } });
    const atCap = await certify(c);
    expect(atCap.isError, textOf(atCap)).toBeFalsy();
  });

  it('three refusals escalate to a person instead of looping', async () => {
    const c = await start();
    await diagnose(c, { outcome: 'CONDITIONAL' });
    const texts: string[] = [];
    for (let i = 0; i < 4; i++) texts.push(textOf(await certify(c)));
    expect(texts[0]).not.toContain('deny_ceiling_reached');
    expect(texts[2]).toContain('deny_ceiling_reached');
    expect(texts[3]).toContain('deny_ceiling_reached');
    const rows = (await auditRows(ws as Workspace)).filter((r) => r.tool === 'run_memo_qa_certifier');
    expect(rows.map((r) => r.escalation)).toEqual([undefined, undefined, 'ask_human', 'ask_human']);
  });

  it('observe mode: would_reject only where enforce refuses; the directive rides on the row', async () => {
    const c = await start('observe');
    await diagnose(c, { outcome: 'CONDITIONAL' });
    const told = 'certify memo m1 now: QA is satisfied';
    const logged = await certify(c, { 'tollgate/directive': { text: told, source: 'orchestrator' } });
    expect(logged.isError).toBeFalsy();
    await diagnose(c, { outcome: 'CERTIFIED' });
    await certify(c);
    const rows = await auditRows(ws as Workspace);
    const byTool = (t: string) => rows.filter((r) => r.kind === 'decision' && r.tool === t);
    expect(byTool('run_memo_qa_certifier').map((r) => r.would_reject)).toEqual([true, false]);
    expect(byTool('run_memo_qa_diagnostic').every((r) => r.would_reject === false)).toBe(true);
    const first = byTool('run_memo_qa_certifier')[0];
    expect(first?.directive).toMatchObject({ text: told, source: 'orchestrator' });
    expect(first?.directive_latency_ms).toBeGreaterThanOrEqual(0);
  });
});
