// A gated tool that also needs a person's approval: the run stops for the approval and resumes. The
// input guardrail may run before the approval and again after it (preApprovalInputGuardrails); the
// call is checked once (its prediction consumed once), runs once after the approval, and a refused
// approval runs nothing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Runner, setTracingDisabled, tool } from '@openai/agents-core';
import { createGate, type Gate, loadPolicy, type Store } from '@tollgate/core';
import { openStore } from '@tollgate/store';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gateAgentTools } from './gate-tools.js';
import { scriptedModel } from './testing/scripted-model.js';

let dir: string;
let gate: Gate;
let store: Store;
let writes: number;

beforeAll(() => setTracingDisabled(true));
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-agents-approval-'));
  store = await openStore(join(dir, 'tollgate.db'));
  gate = createGate({ policy: loadPolicy(['builtin:mcp']), store });
  writes = 0;
  writeFileSync(join(dir, 'release.txt'), 'release 1.3 approved');
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function agentWith(script: Parameters<typeof scriptedModel>[0]) {
  const tools = gateAgentTools(
    [
      tool({
        name: 'read_text_file',
        description: 'Read a text file',
        parameters: z.object({ path: z.string() }),
        execute: async ({ path }) => readFileSync(path, 'utf8'),
      }),
      tool({
        name: 'write_file',
        description: 'Replace a text file',
        parameters: z.object({ path: z.string(), content: z.string() }),
        needsApproval: true,
        execute: async ({ path, content }) => {
          writes++;
          writeFileSync(path, content);
          return 'written';
        },
      }),
    ],
    { gate, session: 's1' },
  );
  const scripted = scriptedModel(script);
  return { agent: new Agent({ name: 'scripted', model: scripted.model, tools }), scripted };
}

describe.each([false, true])('a gated tool that needs approval (guardrails before approval: %s)', (pre) => {
  const runner = () => new Runner({ toolExecution: { preApprovalInputGuardrails: pre } });
  const release = () => join(dir, 'release.txt');
  const script = () => {
    const read = { tool: 'read_text_file', args: { path: release() } };
    const prediction = {
      claims: [{ subject: read, op: 'contains', value: 'release 1.4' }],
      evidence: [{ source: read, quote: 'release 1.3 approved' }],
    };
    return [
      { tool: 'read_text_file', input: { path: release() } },
      {
        tool: 'write_file',
        input: { path: release(), content: 'release 1.4 approved', tollgate: { prediction } },
      },
    ];
  };

  it('checks the call once and runs it once after the approval', async () => {
    const { agent, scripted } = agentWith(script());
    const r = runner();
    const first = await r.run(agent, 'Approve release 1.4');
    expect(first.interruptions?.map((i) => i.name)).toEqual(['write_file']);
    expect(writes).toBe(0);
    // The read's check, and (before the approval) the write's: the guardrail ran where configured.
    expect(first.toolInputGuardrailResults.map((g) => g.output.behavior.type)).toEqual(
      pre ? ['allow', 'allow'] : ['allow'],
    );
    for (const item of first.interruptions ?? []) first.state.approve(item);
    const resumed = await r.run(agent, first.state);
    expect(writes).toBe(1);
    expect(readFileSync(release(), 'utf8')).toBe('release 1.4 approved');
    expect(scripted.seen().map((s) => s.output)).toEqual(['release 1.3 approved', 'written']);
    expect(resumed.finalOutput).toBe('done');
    await gate.flush();
    const rows = await store.listAudit({ session: 's1' });
    const decisions = rows.filter((row) => row.kind === 'decision' && row.tool === 'write_file');
    expect(decisions.map((row) => row.outcome)).toEqual(['dispatch']);
    expect(rows.filter((row) => row.kind === 'outcome').map((row) => row.result?.status)).toEqual(['ok']);
  });

  it('runs nothing when the approval is refused', async () => {
    const { agent } = agentWith(script());
    const r = runner();
    const first = await r.run(agent, 'Approve release 1.4');
    for (const item of first.interruptions ?? []) first.state.reject(item);
    await r.run(agent, first.state);
    expect(writes).toBe(0);
    expect(readFileSync(release(), 'utf8')).toBe('release 1.3 approved');
  });
});
