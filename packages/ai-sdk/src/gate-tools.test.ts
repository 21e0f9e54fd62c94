// A scripted agent run through the real AI SDK (generateText, the SDK's mock model, no network)
// with its file tools behind the gate: a write without an envelope is refused and the rails are what
// the model reads; a read is recorded as an observation; the write with a prediction citing it runs
// once and is settled; a decline runs nothing; and evidence never read, or read for another path, or
// an envelope already used, is refused with the real tool untouched.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGate, type Gate, loadPolicy, type Store } from '@tollgate/core';
import { openStore } from '@tollgate/store';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gateTools } from './gate-tools.js';
import { type ScriptedCall, scriptedModel } from './testing/scripted-model.js';

let dir: string;
let gate: Gate;
let store: Store;
let writes: string[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-ai-sdk-'));
  store = await openStore(join(dir, 'tollgate.db'));
  gate = createGate({ policy: loadPolicy(['builtin:mcp']), store });
  writes = [];
  writeFileSync(join(dir, 'release.txt'), 'release 1.3 approved');
  writeFileSync(join(dir, 'other.txt'), 'release 1.3 approved elsewhere');
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

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
    const release = join(dir, 'release.txt');
    const read = { tool: 'read_text_file', args: { path: release } };
    const write = { path: release, content: 'release 1.4 approved' };
    const prediction = {
      claims: [{ subject: read, op: 'contains', value: 'release 1.4' }],
      evidence: [{ source: read, quote: 'release 1.3 approved' }],
    };
    const decline = {
      irreducible: 'whether the release was signed off',
      would_change_my_mind: ['a sign-off in the notes'],
      attempted_observations: [{ source: read }],
    };
    const run = await runAgent([
      { tool: 'write_file', input: write },
      { tool: 'read_text_file', input: { path: release } },
      { tool: 'write_file', input: { ...write, tollgate: { prediction } } },
      {
        tool: 'write_file',
        input: { path: release, content: 'release 2.0 approved', tollgate: { decline } },
      },
    ]);

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
    expect(writes).toEqual([JSON.stringify(write)]);
    expect(readFileSync(release, 'utf8')).toBe('release 1.4 approved');

    // The audit: refused, dispatched and settled with its claim re-read through the read tool, declined.
    await gate.flush();
    const rows = await store.listAudit({ session: 's1' });
    const decisions = rows.filter((r) => r.kind === 'decision' && r.tool === 'write_file');
    expect(decisions.map((r) => r.outcome)).toEqual(['rejected', 'dispatch', 'declined']);
    const outcome = rows.find((r) => r.kind === 'outcome');
    expect(outcome?.result?.status).toBe('ok');
    expect(outcome?.claims?.map((c) => c.result)).toEqual(['matched']);
  });

  it('refuses evidence never read, a read of another path, and an envelope used before', async () => {
    const release = join(dir, 'release.txt');
    const other = join(dir, 'other.txt');
    const readOf = (path: string) => ({ tool: 'read_text_file', args: { path } });
    const predictionCiting = (path: string, quote: string) => ({
      claims: [{ subject: readOf(release), op: 'contains', value: 'release 1.4' }],
      evidence: [{ source: readOf(path), quote }],
    });
    const write = { path: release, content: 'release 1.4 approved' };
    const valid = predictionCiting(release, 'release 1.3 approved');
    const run = await runAgent([
      // Cites a read it never made.
      { tool: 'write_file', input: { ...write, tollgate: { prediction: valid } } },
      // Reads another file and cites that for this one.
      { tool: 'read_text_file', input: { path: other } },
      {
        tool: 'write_file',
        input: { ...write, tollgate: { prediction: predictionCiting(other, 'approved elsewhere') } },
      },
      // Reads the file, writes with a valid prediction, then replays the same envelope.
      { tool: 'read_text_file', input: { path: release } },
      { tool: 'write_file', input: { ...write, tollgate: { prediction: valid } } },
      { tool: 'write_file', input: { ...write, tollgate: { prediction: valid } } },
      // A broken envelope is named, not passed on.
      { tool: 'write_file', input: { ...write, tollgate: '{"prediction": ' } },
    ]);
    const writesSeen = run.seen().filter((s) => s.tool === 'write_file');
    expect(writesSeen.map((s) => s.type)).toEqual([
      'error-text',
      'error-text',
      'text',
      'error-text',
      'error-text',
    ]);
    expect(writesSeen[0]?.value).toContain('[evidence_not_observed]');
    expect(writesSeen[1]?.value).toContain('[evidence_not_accepted]');
    expect(writesSeen[2]?.value).toBe('written');
    expect(writesSeen[3]?.value).toContain('[prediction_already_used]');
    expect(writesSeen[4]?.value).toContain('does not parse');
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
