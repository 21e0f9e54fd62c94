// A scripted agent with a shell tool, run through the real AI SDK and the real Agents SDK against a
// scratch repository with a bare remote: `git push --force` without an envelope is refused (the rails
// are what the model reads, the remote does not move); `git ls-remote origin` is recorded as a read;
// the push with a prediction citing it runs once and the claim is re-read through the shell tool
// (matched); a prediction citing a read never made is refused.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, tool as agentTool, run, setTracingDisabled } from '@openai/agents-core';
import { gateTools } from '@tollgate/ai-sdk';
import { createGate, type Gate, loadPolicy, type Store } from '@tollgate/core';
import { gateAgentTools } from '@tollgate/openai-agents';
import { openStore } from '@tollgate/store';
import { generateText, stepCountIs, tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel as aiModel } from '../packages/ai-sdk/src/testing/scripted-model.js';
import { git, scratchRepo } from '../packages/cli/src/testing/harness.js';
import { scriptedModel as agentsModel } from '../packages/openai-agents/src/testing/scripted-model.js';

let repo: ReturnType<typeof scratchRepo>;
let store: Store;
let gate: Gate;
let commands: string[];

beforeEach(async () => {
  repo = scratchRepo();
  store = await openStore(join(repo.root, 'tollgate.db'));
  gate = createGate({ policy: loadPolicy(['builtin:shell']), store });
  commands = [];
  setTracingDisabled(true);
});
afterEach(async () => {
  await store.close();
  rmSync(repo.root, { recursive: true, force: true });
});

function sh(command: string): string {
  commands.push(command);
  const out = spawnSync('bash', ['-c', command], { cwd: repo.work, encoding: 'utf8' });
  return `${out.stdout}${out.stderr}`;
}

type Step = { tool: string; input: Record<string, unknown> };

/** The scenario's turns, given the remote's and the work tree's heads. */
function script(remoteHead: string, localHead: string): { steps: Step[]; push: Step } {
  const push = { tool: 'shell', input: { command: 'git push --force origin main' } };
  const readRemote = 'git ls-remote origin';
  const prediction = (source: string, quote: string) => ({
    claims: [{ subject: readRemote, op: 'contains', value: localHead }],
    evidence: [{ source, quote }],
  });
  const withPrediction = (source: string, quote: string) => ({
    tool: 'shell',
    input: { ...push.input, tollgate: { prediction: prediction(source, quote) } },
  });
  return {
    push,
    steps: [
      push,
      // Cites a read it never made.
      withPrediction(readRemote, remoteHead),
      { tool: 'shell', input: { command: readRemote } },
      withPrediction(readRemote, remoteHead),
    ],
  };
}

function expectScenario(seen: string[], remoteHead: string, localHead: string): void {
  expect(seen).toHaveLength(4);
  expect(seen[0]).toContain('Tollgate (an automated gate you can satisfy) held this call');
  expect(seen[0]).toContain('git.push.force');
  expect(seen[0]).toContain('[prediction_missing]');
  expect(seen[1]).toContain('[evidence_not_observed]');
  expect(seen[2]).toContain(remoteHead);
  expect(seen[3]).not.toContain('Tollgate');
  // The real push ran exactly once, and only after the cited read.
  expect(commands.filter((c) => c.startsWith('git push'))).toEqual(['git push --force origin main']);
  expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).toBe(localHead);
}

async function expectSettled(session: string): Promise<void> {
  await gate.flush();
  const rows = await store.listAudit({ session });
  const outcome = rows.find((r) => r.kind === 'outcome');
  expect(outcome?.result?.status).toBe('ok');
  expect(outcome?.claims?.map((c) => c.result)).toEqual(['matched']);
}

describe('a shell tool behind the gate in an agent framework', () => {
  it('through the AI SDK', async () => {
    const remoteHead = git(repo.remote, 'rev-parse', 'refs/heads/main');
    const localHead = git(repo.work, 'rev-parse', 'HEAD');
    const { steps } = script(remoteHead, localHead);
    const scripted = aiModel(steps);
    await generateText({
      model: scripted.model,
      tools: gateTools(
        {
          shell: tool({
            inputSchema: z.object({ command: z.string() }),
            execute: async (a) => sh(a.command),
          }),
        },
        { gate, session: 'ai' },
      ),
      prompt: 'Publish the local commit.',
      stopWhen: stepCountIs(steps.length + 1),
    });
    expectScenario(
      scripted.seen().map((s) => String(s.value)),
      remoteHead,
      localHead,
    );
    await expectSettled('ai');
  });

  it('through the Agents SDK', async () => {
    const remoteHead = git(repo.remote, 'rev-parse', 'refs/heads/main');
    const localHead = git(repo.work, 'rev-parse', 'HEAD');
    const { steps } = script(remoteHead, localHead);
    const scripted = agentsModel(steps);
    const shell = agentTool({
      name: 'shell',
      description: 'Run a command in the repository',
      parameters: z.object({ command: z.string() }),
      execute: async (a) => sh(a.command),
    });
    const agent = new Agent({
      name: 'scripted',
      model: scripted.model,
      tools: gateAgentTools([shell], { gate, session: 'agents' }),
    });
    await run(agent, 'Publish the local commit.', { maxTurns: steps.length + 2 });
    expectScenario(
      scripted.seen().map((s) => s.output),
      remoteHead,
      localHead,
    );
    await expectSettled('agents');
  });
});
