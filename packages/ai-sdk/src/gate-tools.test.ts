// A scripted agent run through the real AI SDK (generateText, the SDK's mock model, no network)
// with its file tools behind the gate: a write without an envelope is refused and the rails are what
// the model reads; a read is recorded as an observation; the write with a prediction citing it runs
// once and is settled; a decline runs nothing; and evidence never read, or read for another path, or
// an envelope already used, is refused with the real tool untouched.
import { readFileSync, writeFileSync } from 'node:fs';
import { createGate, type Gate, loadPolicy, type Store } from '@tollgate/core';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
import { gateTools } from './gate-tools.js';
import { type ScriptedCall, scriptedModel } from './testing/scripted-model.js';

let fixture: ReleaseFixture;
let gate: Gate;
let store: Store;
let writes: string[];

beforeEach(async () => {
  fixture = await openReleaseFixture('tollgate-ai-sdk-');
  ({ gate, store } = fixture);
  writes = [];
});
afterEach(() => fixture.close());

// The application's tools, declared the two ways the SDK allows: zod, and a plain JSON Schema.
function appTools() {
  return {
    read_text_file: tool({
      description: 'Read a text file',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => readFileSync(path, 'utf8'),
    }),
    write_file: tool({
      description: 'Write a text file, replacing its contents',
      inputSchema: jsonSchema<{ path: string; content: string }>({
        type: 'object',
        properties: { path: { type: 'string' }, content: { type: 'string' } },
        required: ['path', 'content'],
        additionalProperties: false,
      }),
      execute: async (input: { path: string; content: string }) => {
        writes.push(JSON.stringify(input));
        writeFileSync(input.path, input.content);
        return 'written';
      },
    }),
  };
}

async function runAgent(script: ScriptedCall[], session = 's1') {
  const scripted = scriptedModel(script);
  const result = await generateText({
    model: scripted.model,
    tools: gateTools(appTools(), { gate, session, agent: 'scripted' }),
    prompt: 'Update the release notes to 1.4.',
    stopWhen: stepCountIs(script.length + 1),
  });
  return { ...scripted, result };
}

describe('gateTools through the AI SDK', () => {
  it('refuses, records the read, dispatches on a cited prediction, and records a decline', async () => {
    const { release } = fixture;
    const run = await runAgent(dispatchScript(release));

    // The model was offered the envelope on the gated tool only, with the contract in its description.
    const offered = run.calls[0]?.tools ?? [];
    const schemaOf = (name: string) =>
      offered.find((t) => t.name === name && t.type === 'function') as {
        inputSchema: { properties: object };
        description?: string;
      };
    expect(Object.keys(schemaOf('write_file').inputSchema.properties)).toEqual([
      'path',
      'content',
      'tollgate',
    ]);
    expect(schemaOf('write_file').description).toContain('needs a "tollgate" argument');
    expect(Object.keys(schemaOf('read_text_file').inputSchema.properties)).toEqual(['path']);

    const seen = run.seen();
    expect(seen.map((s) => [s.tool, s.type])).toEqual([
      ['write_file', 'error-text'],
      ['read_text_file', 'text'],
      ['write_file', 'text'],
      ['write_file', 'text'],
    ]);
    // (1) The rails, as the model read them; the real tool did not run for that call.
    expect(seen[0]?.value).toContain('Tollgate (an automated gate you can satisfy) held this call');
    expect(seen[0]?.value).toContain('[prediction_missing]');
    expect(seen[0]?.value).toContain('"tollgate" argument');
    // (2) The read's output; (3) the write ran exactly once, without the envelope; (4) declined.
    expect(seen[1]?.value).toBe('release 1.3 approved');
    expect(seen[2]?.value).toBe('written');
    expect(seen[3]?.value).toContain('Tollgate recorded your decline');
    expect(writes).toEqual([JSON.stringify(releaseWrite(release))]);
    expect(readFileSync(release, 'utf8')).toBe('release 1.4 approved');

    // The audit: refused, dispatched and settled with its claim re-read through the read tool, declined.
    await expectDispatchAudit(fixture, 's1');
  });

  it('refuses evidence never read, a read of another path, and an envelope used before', async () => {
    const run = await runAgent(refusalScript(fixture.release, fixture.other));
    const writesSeen = run.seen().filter((s) => s.tool === 'write_file');
    expect(writesSeen.map((s) => s.type)).toEqual([
      'error-text',
      'error-text',
      'text',
      'error-text',
      'error-text',
    ]);
    expectRefusals(writesSeen.map((s) => s.value));
    expect(writes).toHaveLength(1);
  });
});

describe('a gated tool whose input is not an object', () => {
  it('is checked on what it will run with, and refused without an envelope', async () => {
    let ran = 0;
    const tools = gateTools(
      {
        delete_entry: tool({
          inputSchema: z.string(),
          execute: async () => {
            ran++;
            return 'deleted';
          },
        }),
      },
      { gate, session: 's4' },
    );
    const out = await tools.delete_entry.execute?.('release-1.3', { toolCallId: 'c1', messages: [] });
    expect(JSON.stringify(out)).toContain('prediction_missing');
    expect(ran).toBe(0);
    await gate.flush();
    const [row] = await store.listAudit({ session: 's4', kind: 'decision' });
    expect(row?.call).toMatchObject({ tool: 'delete_entry', args: { input: 'release-1.3' } });
  });
});

// A provider-defined tool with an app-supplied execute (as anthropic.tools.bash_20250124({ execute })
// builds it) runs here: it is checked like any tool; only a provider tool with no execute passes through.
describe('a provider tool with a local execute', () => {
  // Shell rules for the bash tool; the editor is destructive by its hints, as an app would say.
  const shellGate = () => createGate({ policy: loadPolicy(['builtin:shell', 'builtin:mcp']), store });
  const hints = (name: string) =>
    name === 'str_replace_based_edit_tool' ? { destructiveHint: true } : undefined;
  function providerTools(ran: string[]) {
    return {
      bash: {
        type: 'provider' as const,
        id: 'anthropic.bash_20250124' as const,
        args: {},
        inputSchema: z.object({ command: z.string(), restart: z.boolean().optional() }),
        execute: async (input: { command?: string }) => {
          ran.push(JSON.stringify(input));
          return 'ran';
        },
      },
      str_replace_based_edit_tool: {
        type: 'provider' as const,
        id: 'anthropic.text_editor_20250728' as const,
        args: {},
        inputSchema: z.object({ command: z.string(), path: z.string(), file_text: z.string().optional() }),
        execute: async (input: unknown) => {
          ran.push(JSON.stringify(input));
          return 'edited';
        },
      },
      web_search: {
        type: 'provider' as const,
        id: 'anthropic.web_search_20250305' as const,
        args: {},
        inputSchema: z.object({ query: z.string() }),
      },
    };
  }

  /** Runs a wrapped tool's execute as the SDK does (input, then the call's options). */
  const execute = (tool: { execute?: unknown }, input: unknown, toolCallId: string) =>
    (tool.execute as (input: unknown, options: unknown) => Promise<unknown>)(input, {
      toolCallId,
      messages: [],
    });

  it('checks a bash call as the shell tool on its command, refusing it without an envelope', async () => {
    const ran: string[] = [];
    const g = shellGate();
    const tools = gateTools(providerTools(ran), { gate: g, session: 's5', hints });
    const out = await execute(tools.bash, { command: 'git push --force origin main' }, 'c1');
    expect(JSON.stringify(out)).toContain('prediction_missing');
    expect(ran).toEqual([]);
    await g.flush();
    const [row] = await store.listAudit({ session: 's5', kind: 'decision' });
    expect(row?.call).toMatchObject({ tool: 'shell', args: { command: 'git push --force origin main' } });
  });

  it('checks any other provider tool as a call of its name with its input', async () => {
    const ran: string[] = [];
    const g = shellGate();
    const tools = gateTools(providerTools(ran), { gate: g, session: 's6', hints });
    const out = await execute(
      tools.str_replace_based_edit_tool,
      { command: 'create', path: fixture.release, file_text: 'release 9 approved' },
      'c2',
    );
    expect(JSON.stringify(out)).toContain('"outcome":"rejected"');
    expect(ran).toEqual([]);
    expect(readFileSync(fixture.release, 'utf8')).toBe('release 1.3 approved');
    await g.flush();
    const [row] = await store.listAudit({ session: 's6', kind: 'decision' });
    expect(row?.call).toMatchObject({ tool: 'str_replace_based_edit_tool', args: { path: fixture.release } });
  });

  it('passes a provider tool with no local execute through unchanged', () => {
    const original = providerTools([]);
    const tools = gateTools(original, { gate, session: 's7' });
    expect(tools.web_search).toBe(original.web_search);
    expect(tools.bash).not.toBe(original.bash);
  });
});
