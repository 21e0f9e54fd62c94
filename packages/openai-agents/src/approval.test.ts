// A gated tool that also needs a person's approval: the run stops for the approval and resumes. The
// input guardrail may run before the approval and again after it (preApprovalInputGuardrails); the
// call is checked once (its prediction consumed once), runs once after the approval, and a refused
// approval runs nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, Runner, setTracingDisabled, tool } from '@openai/agents-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  openReleaseFixture,
  predictionCiting,
  type ReleaseFixture,
  releaseWrite,
} from '../../../test/support/release-scenario.js';
import { gateAgentTools } from './gate-tools.js';
import { scriptedModel } from './testing/scripted-model.js';

let fixture: ReleaseFixture;
let writes: number;

beforeAll(() => setTracingDisabled(true));
beforeEach(async () => {
  fixture = await openReleaseFixture('tollgate-agents-approval-');
  writes = 0;
});
afterEach(() => fixture.close());

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
    { gate: fixture.gate, session: 's1' },
  );
  const scripted = scriptedModel(script);
  return { agent: new Agent({ name: 'scripted', model: scripted.model, tools }), scripted };
}

describe.each([false, true])('a gated tool that needs approval (guardrails before approval: %s)', (pre) => {
  const runner = () => new Runner({ toolExecution: { preApprovalInputGuardrails: pre } });
  const release = () => fixture.release;
  const script = () => [
    { tool: 'read_text_file', input: { path: release() } },
    {
      tool: 'write_file',
      input: { ...releaseWrite(release()), tollgate: { prediction: predictionCiting(release()) } },
    },
  ];

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
    await fixture.gate.flush();
    const rows = await fixture.store.listAudit({ session: 's1' });
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
