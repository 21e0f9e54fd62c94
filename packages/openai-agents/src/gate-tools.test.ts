// A scripted agent run through the real Agents SDK (run(), its tool guardrails, a scripted Model, no
// network) with file tools behind the gate: a write without an envelope is refused by the input
// guardrail and the rails are what the model reads; a read is recorded as an observation; the write
// with a prediction citing it runs once and is settled; a decline runs nothing; and evidence never
// read, read for another path, or already used is refused with the real tool untouched.
import { readFileSync, writeFileSync } from 'node:fs';
import {
  Agent,
  applyPatchTool,
  computerTool,
  RunContext,
  run,
  setTracingDisabled,
  shellTool,
  type Tool,
  tool,
} from '@openai/agents-core';
import type { Gate } from '@tollgate/core';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  dispatchScript,
  expectDispatchAudit,
  expectRefusals,
  openReleaseFixture,
  type ReleaseFixture,
  refusalScript,
  releaseWrite,
} from '../../../test/support/release-scenario.js';
import { gateAgentTools, gateFunctionTool } from './gate-tools.js';
import { type ScriptedCall, scriptedModel } from './testing/scripted-model.js';

let fixture: ReleaseFixture;
let gate: Gate;
let writes: string[];

beforeAll(() => setTracingDisabled(true));
beforeEach(async () => {
  fixture = await openReleaseFixture('tollgate-agents-');
  gate = fixture.gate;
  writes = [];
});
afterEach(() => fixture.close());

// The application's tools: a zod-typed read and a write with strict JSON Schema parameters.
function appTools() {
  return [
    tool({
      name: 'read_text_file',
      description: 'Read a text file',
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }) => readFileSync(path, 'utf8'),
    }),
    tool({
      name: 'write_file',
      description: 'Write a text file, replacing its contents',
      parameters: {
        type: 'object' as const,
        properties: { path: { type: 'string' }, content: { type: 'string' } },
        required: ['path', 'content'],
        additionalProperties: false as const,
      },
      execute: async (input) => {
        const { path, content } = input as { path: string; content: string };
        writes.push(JSON.stringify(input));
        writeFileSync(path, content);
        return 'written';
      },
    }),
  ];
}

async function runAgent(script: ScriptedCall[], session = 's1') {
  const scripted = scriptedModel(script);
  const agent = new Agent({
    name: 'scripted',
    instructions: 'Update the release notes to 1.4.',
    model: scripted.model,
    tools: gateAgentTools(appTools(), { gate, session, agent: 'scripted' }),
  });
  const result = await run(agent, 'Update the release notes to 1.4.', { maxTurns: script.length + 2 });
  return { ...scripted, result };
}

describe('gateAgentTools through the Agents SDK', () => {
  it('refuses, records the read, dispatches on a cited prediction, and records a decline', async () => {
    const { release } = fixture;
    const run = await runAgent(dispatchScript(release));

    // The model was offered the envelope on the gated tool only, with the contract in its description.
    const offered = run.requests[0]?.tools ?? [];
    const offer = (name: string) =>
      offered.find((t) => t.type === 'function' && t.name === name) as {
        parameters: { properties: object };
        description: string;
      };
    expect(Object.keys(offer('write_file').parameters.properties)).toEqual(['path', 'content', 'tollgate']);
    expect(offer('write_file').description).toContain('needs a "tollgate" argument');
    expect(Object.keys(offer('read_text_file').parameters.properties)).toEqual(['path']);

    const seen = run.seen();
    expect(seen.map((s) => s.tool)).toEqual(['write_file', 'read_text_file', 'write_file', 'write_file']);
    // (1) The rails, as the model read them, from the input guardrail; the tool did not run.
    expect(seen[0]?.output).toContain('Tollgate (an automated gate you can satisfy) held this call');
    expect(seen[0]?.output).toContain('[prediction_missing]');
    expect(seen[0]?.output).toContain('"tollgate" argument');
    const guardrails = run.result.toolInputGuardrailResults.map((g) => g.output.behavior.type);
    expect(guardrails).toEqual(['rejectContent', 'allow', 'allow', 'rejectContent']);
    // (2) The read's output; (3) the write ran exactly once, without the envelope; (4) declined.
    expect(seen[1]?.output).toBe('release 1.3 approved');
    expect(seen[2]?.output).toBe('written');
    expect(seen[3]?.output).toContain('Tollgate recorded your decline');
    expect(writes).toEqual([JSON.stringify(releaseWrite(release))]);
    expect(readFileSync(release, 'utf8')).toBe('release 1.4 approved');

    await expectDispatchAudit(fixture, 's1');
  });

  it('refuses evidence never read, a read of another path, and an envelope used before', async () => {
    const run = await runAgent(refusalScript(fixture.release, fixture.other));
    const writesSeen = run.seen().filter((s) => s.tool === 'write_file');
    expectRefusals(writesSeen.map((s) => s.output));
    expect(writes).toHaveLength(1);
  });
});

describe('a gated tool invoked without its guardrail', () => {
  it('checks the call itself: no envelope is refused with the rails, and the tool does not run', async () => {
    const [, write] = appTools();
    if (write?.type !== 'function') throw new Error('write_file is a function tool');
    const gated = gateFunctionTool(write, { gate, session: 's2' });
    const path = fixture.release;
    const out = await gated.invoke(new RunContext(), JSON.stringify({ path, content: 'x' }), {
      toolCall: { type: 'function_call', callId: 'never-checked', name: 'write_file', arguments: '{}' },
    });
    expect(String(out)).toContain('[prediction_missing]');
    expect(writes).toEqual([]);
    expect(readFileSync(path, 'utf8')).toBe('release 1.3 approved');
  });

  it('does not take a check made for other arguments under the same call id', async () => {
    const [, write] = appTools();
    if (write?.type !== 'function') throw new Error('write_file is a function tool');
    const gated = gateFunctionTool(write, { gate, session: 's3' });
    const guardrail = gated.inputGuardrails?.[0];
    const context = new RunContext();
    // A read-only-looking call would pass; here the guardrail checks a call the gate refuses, and
    // a different call then arrives under the same id: it is checked afresh, not let through.
    const path = fixture.release;
    const checked = await guardrail?.run({
      context,
      agent: new Agent({ name: 'a' }),
      toolCall: {
        type: 'function_call',
        callId: 'c1',
        name: 'write_file',
        arguments: JSON.stringify({ path, content: 'a' }),
      },
    });
    expect(checked?.behavior.type).toBe('rejectContent');
    const out = await gated.invoke(context, JSON.stringify({ path, content: 'b' }), {
      toolCall: { type: 'function_call', callId: 'c1', name: 'write_file', arguments: '{}' },
    });
    expect(String(out)).toContain('[prediction_missing]');
    expect(writes).toEqual([]);
  });
});

describe('a check held for one tool', () => {
  // A read-only tool and a write, called with the same arguments under the same call id: the read's
  // check (which the gate lets through) must not let the write run.
  it.each(['c1', ''])('is not used by another tool with the same call id (%j) and arguments', async (id) => {
    const [gatedRead, gatedWrite] = gateAgentTools(appTools(), { gate, session: 's8' });
    if (gatedRead?.type !== 'function' || gatedWrite?.type !== 'function') throw new Error('function tools');
    const context = new RunContext();
    const args = JSON.stringify({ path: fixture.release, content: 'release 9 approved' });
    const checked = await gatedRead.inputGuardrails?.[0]?.run({
      context,
      agent: new Agent({ name: 'a' }),
      toolCall: { type: 'function_call', callId: id, name: 'read_text_file', arguments: args },
    });
    expect(checked?.behavior.type).toBe('allow');
    const out = await gatedWrite.invoke(context, args, {
      toolCall: { type: 'function_call', callId: id, name: 'write_file', arguments: args },
    });
    expect(String(out)).toContain('[prediction_missing]');
    expect(writes).toEqual([]);
    expect(readFileSync(fixture.release, 'utf8')).toBe('release 1.3 approved');
  });
});

describe('gateAgentTools with tools the SDK runs itself', () => {
  const ran: string[] = [];
  const shell = {
    run: async (action: { commands: string[] }) => {
      ran.push(...action.commands);
      return { output: [] };
    },
  };
  const editor = {
    createFile: async () => {
      ran.push('create');
    },
    updateFile: async () => {
      ran.push('update');
    },
    deleteFile: async () => {
      ran.push('delete');
    },
  };

  it('refuses at setup a local shell tool, an apply_patch tool and a computer tool, naming each', () => {
    for (const [t, kind] of [
      [shellTool({ shell }), 'shell'],
      [applyPatchTool({ editor }), 'apply_patch'],
      [computerTool({ computer: { environment: 'linux', dimensions: [800, 600] } as never }), 'computer'],
    ] as const) {
      expect(() => gateAgentTools([...appTools(), t], { gate, session: 's9' })).toThrow(
        new RegExp(`cannot gate the ${kind} tool "${t.name}"`),
      );
    }
    expect(ran).toEqual([]);
  });

  it('passes hosted tools that run at the provider through unchanged', () => {
    const search = webSearchLike();
    const hostedShell = shellTool({ environment: { type: 'container_auto' } });
    const tools = gateAgentTools([...appTools(), search, hostedShell], { gate, session: 's10' });
    expect(tools[2]).toBe(search);
    expect(tools[3]).toBe(hostedShell);
    expect(tools[1]).not.toBe(appTools()[1]);
  });
});

function webSearchLike(): Tool {
  return { type: 'hosted_tool', name: 'web_search', providerData: { type: 'web_search' } };
}
