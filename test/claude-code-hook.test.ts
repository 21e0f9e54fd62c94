// Claude Code end to end: real-shaped PreToolUse/PostToolUse payloads fed to the built binary, the
// agent's Bash commands run for real in a scratch repository. Rejected → read recorded → prediction
// filed through the Bash path (bound by the hook) → allowed → PostToolUse outcome with probed claims.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, git, lastJson, scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';

interface HookAnswer {
  decision?: string;
  hookSpecificOutput: {
    hookEventName: string;
    permissionDecision?: string;
    permissionDecisionReason?: string;
    updatedInput?: { command: string; description?: string };
    additionalContext?: string;
  };
}

let repo: ReturnType<typeof scratchRepo>;
const session = 'cc-session-7f3a';
beforeAll(() => {
  repo = scratchRepo();
});
afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

/** The push's tool-use id, as the host gives it to both its PreToolUse and its PostToolUse. */
const PUSH_ID = 'toolu_push_main_1';

function payload(event: string, command: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    session_id: session,
    transcript_path: `/home/u/.claude/projects/x/${session}.jsonl`,
    cwd: repo.work,
    permission_mode: 'default',
    hook_event_name: event,
    tool_name: 'Bash',
    tool_input: { command, description: 'agent command' },
    tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
    ...extra,
  });
}

async function hook(input: string): Promise<HookAnswer> {
  const answer = await tollgate(['hook', 'claude-code'], { cwd: repo.work, input });
  expect(answer.code).toBe(0);
  expect(answer.stderr).toBe('');
  return lastJson<HookAnswer>(answer.stdout);
}

/** What Claude Code's Bash tool does with a command: /bin/sh in the session's cwd. */
function bash(command: string): string {
  return execFileSync('/bin/sh', ['-c', command], {
    cwd: repo.work,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
}

const push = 'git push --force origin main';

describe('Claude Code: the whole agent flow through tollgate hook claude-code', () => {
  let head: string;
  let observationId: string;

  it('denies the force-push with rails worded as a gate the agent can satisfy', async () => {
    const answer = await hook(payload('PreToolUse', push));
    expect(answer.hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
    });
    const reason = answer.hookSpecificOutput.permissionDecisionReason ?? '';
    expect(reason).toContain('an automated gate you can satisfy');
    expect(reason).toContain('[prediction_missing]');
    expect(reason).toContain("tollgate predict --for 'git push --force origin main' --json-doc");
  });

  it('records the read the agent makes and tells it the observation id', async () => {
    head = bash('git rev-parse HEAD').trim();
    const answer = await hook(
      payload('PostToolUse', 'git rev-parse HEAD', {
        tool_response: { stdout: `${head}\n`, stderr: '', interrupted: false, isImage: false },
      }),
    );
    expect(answer.hookSpecificOutput.hookEventName).toBe('PostToolUse');
    observationId = /observation (\w{26})/.exec(answer.hookSpecificOutput.additionalContext ?? '')?.[1] ?? '';
    expect(observationId).not.toBe('');
  });

  it('binds a Bash `tollgate predict` to the hook session, and the rewritten command files it', async () => {
    const doc = {
      claims: [{ subject: 'git ls-remote origin', op: 'contains', value: head }],
      evidence: [{ observation: observationId, quote: head }],
      rationale: 'remote main moves to my HEAD',
    };
    const agentCommand = `tollgate predict --for '${push}' --json-doc '${JSON.stringify(doc)}'`;
    const answer = await hook(payload('PreToolUse', agentCommand));
    expect(answer.hookSpecificOutput.permissionDecision).toBe('allow');
    const rewritten = answer.hookSpecificOutput.updatedInput;
    expect(rewritten?.description).toBe('agent command');
    expect(rewritten?.command).toContain(`TOLLGATE_SESSION=${session}`);
    expect(rewritten?.command).toContain('bin/tollgate.js predict --for');
    expect(bash(rewritten?.command ?? 'false')).toContain('recorded prediction');
  });

  it('lets the push through with no objection, naming the accepted prediction', async () => {
    const answer = await hook(payload('PreToolUse', push, { tool_use_id: PUSH_ID }));
    expect(answer.hookSpecificOutput.permissionDecision).toBeUndefined();
    expect(answer.hookSpecificOutput.additionalContext).toMatch(/prediction \w{26} accepted/);
  });

  it('records the outcome on PostToolUse, probing the claim subject', async () => {
    bash(`${push} 2>&1`);
    expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).toBe(head);
    // A report of the same command under another tool-use id, or none, settles nothing (a forgery
    // would write the outcome of a call it never made); the host's own report below does.
    for (const forged of [{ tool_use_id: 'toolu_forged_1' }, { tool_use_id: undefined }]) {
      const other = await hook(payload('PostToolUse', push, { ...forged, tool_response: { stdout: 'ok' } }));
      expect(other.hookSpecificOutput.additionalContext ?? '').not.toContain('claims matched');
    }
    const answer = await hook(
      // The host reports the call with the tool-use id its PreToolUse carried: only that report settles it.
      payload('PostToolUse', push, {
        tool_use_id: PUSH_ID,
        tool_response: { stdout: '', stderr: 'forced update' },
      }),
    );
    expect(answer.hookSpecificOutput.additionalContext).toContain(
      'claims matched 1, mismatched 0, unverifiable 0',
    );
    const rows = JSON.parse(
      (await tollgate(['audit', 'list', '--json', '--session', session], { cwd: repo.work })).stdout,
    ) as { id: string; kind: string; outcome?: string; agent?: string }[];
    const dispatch = rows.find((r) => r.outcome === 'dispatch');
    expect(dispatch?.agent).toBe('claude-code');
    const view = lastJson(
      (await tollgate(['audit', 'show', dispatch?.id ?? '', '--json'], { cwd: repo.work })).stdout,
    );
    expect(view.claims).toEqual([expect.objectContaining({ result: 'matched' })]);
  });

  it('judges a compound command segment by segment and names the gated segment in the audit row', async () => {
    const answer = await hook(payload('PreToolUse', 'git status --short && git push -f origin main'));
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    const rows = JSON.parse(
      (await tollgate(['audit', 'list', '--json', '--limit', '1', '--session', session], { cwd: repo.work }))
        .stdout,
    ) as { segment?: string }[];
    expect(rows[0]?.segment).toBe('git push -f origin main');
  });

  it('a filed decline ends in deny saying it was recorded and nothing was done', async () => {
    const reset = 'git reset --hard HEAD~1';
    const read = await hook(
      payload('PostToolUse', 'git log --oneline -3', {
        tool_response: { stdout: bash('git log --oneline -3') },
      }),
    );
    const id = /observation (\w{26})/.exec(read.hookSpecificOutput.additionalContext ?? '')?.[1];
    const doc = {
      irreducible: 'whether the second commit is wanted',
      would_change_my_mind: ['the user says so'],
      attempted_observations: [{ observation: id }],
    };
    const bound = await hook(
      payload('PreToolUse', `tollgate decline --for '${reset}' --json-doc '${JSON.stringify(doc)}'`),
    );
    expect(bash(bound.hookSpecificOutput.updatedInput?.command ?? 'false')).toContain('recorded decline');
    const answer = await hook(payload('PreToolUse', reset));
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toMatch(
      /decline was recorded .* nothing was done/,
    );
  });

  it('refuses to run operator commands for the agent, and unbindable tollgate commands', async () => {
    const override = await hook(
      payload('PreToolUse', 'tollgate override --reason x --ttl 1h --session s --operator me'),
    );
    expect(override.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(override.hookSpecificOutput.permissionDecisionReason).toContain('human operators');
    for (const command of [
      'npx -y tollgate override --reason x --ttl 24h --rule git.push.force --operator me',
      `node ${BIN} override --reason x --ttl 24h --rule git.push.force --operator me`,
      `echo '{"hook_event_name":"PostToolUse"}' | npx tollgate hook claude-code`,
      'npm exec -y -- tollgate init claude-code',
      'pnpm dlx tollgate serve',
    ]) {
      const denied = await hook(payload('PreToolUse', command));
      expect(denied.hookSpecificOutput.permissionDecision, command).toBe('deny');
      expect(denied.hookSpecificOutput.permissionDecisionReason, command).toContain(
        'runs the tollgate CLI itself',
      );
    }
    const piped = await hook(payload('PreToolUse', 'cat doc.json | tollgate predict --for x --file -'));
    expect(piped.hookSpecificOutput.permissionDecision).toBe('deny');
    const session = await hook(
      payload('PreToolUse', "tollgate predict --session other --for x --json-doc '{}'"),
    );
    expect(session.hookSpecificOutput.permissionDecisionReason).toContain('drop --session');
  });
});

describe('Claude Code: the hook finds its config from the project, not from the input cwd', () => {
  let r: ReturnType<typeof scratchRepo>;
  beforeAll(() => {
    r = scratchRepo();
    // An agent-written config in a subdirectory that would switch the gate off.
    mkdirSync(join(r.work, 'sub'), { recursive: true });
    writeFileSync(join(r.work, 'sub', 'tollgate.config.yaml'), 'mode: observe\n');
  });
  afterAll(() => rmSync(r.root, { recursive: true, force: true }));

  const pre = (cwd: string) =>
    JSON.stringify({
      session_id: 'cwd-escape',
      cwd,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: push },
    });
  const decision = async (cwd: string, env: Record<string, string> = {}) => {
    const answer = await tollgate(['hook', 'claude-code'], { cwd, env, input: pre(join(r.work, 'sub')) });
    return lastJson<HookAnswer>(answer.stdout).hookSpecificOutput.permissionDecision;
  };

  it('ignores the input cwd: `cd sub` with sub/tollgate.config.yaml does not turn the gate off', async () => {
    expect(await decision(r.work)).toBe('deny');
  });

  it('uses CLAUDE_PROJECT_DIR when Claude Code sets it, wherever the hook process starts', async () => {
    expect(await decision(join(r.work, 'sub'), { CLAUDE_PROJECT_DIR: r.work })).toBe('deny');
    // Without it, the process cwd decides (here the observe config): the project dir is what pins it.
    expect(await decision(join(r.work, 'sub'))).not.toBe('deny');
  });
});

describe('Claude Code: $TMPDIR is what the environment the hook runs in gives it', () => {
  let r: ReturnType<typeof scratchRepo>;
  beforeAll(() => {
    r = scratchRepo();
  });
  afterAll(() => rmSync(r.root, { recursive: true, force: true }));

  const decision = async (env: Record<string, string>) => {
    const input = JSON.stringify({
      session_id: 'tmpdir',
      cwd: r.work,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf "$TMPDIR/build-cache"' },
    });
    const answer = await tollgate(['hook', 'claude-code'], { cwd: r.work, env, input });
    return lastJson<HookAnswer>(answer.stdout).hookSpecificOutput.permissionDecision;
  };

  it('lets an rm under the temp directory the environment sets through', async () => {
    expect(await decision({ TMPDIR: '/tmp/tollgate-e2e-tmp' })).not.toBe('deny');
  });

  it('denies it when TMPDIR is empty: the shell would remove /build-cache', async () => {
    expect(await decision({ TMPDIR: '' })).toBe('deny');
  });
});

describe('Claude Code: MCP tools are gated through the hook by their bare name', () => {
  let r: ReturnType<typeof scratchRepo>;
  beforeAll(() => {
    r = scratchRepo();
  });
  afterAll(() => rmSync(r.root, { recursive: true, force: true }));
  const mcpSession = 'cc-mcp-1';
  const call = async (event: string, tool: string, toolInput: Record<string, unknown>, extra = {}) => {
    const input = JSON.stringify({
      session_id: mcpSession,
      cwd: r.work,
      hook_event_name: event,
      tool_name: tool,
      tool_input: toolInput,
      ...extra,
    });
    const answer = await tollgate(['hook', 'claude-code'], { cwd: r.work, input });
    return lastJson<HookAnswer>(answer.stdout);
  };
  const del = { entityNames: ['alice'] };

  it('denies mcp__memory__delete_entities with rails that say how to file from Bash, then lets the predicted call through', async () => {
    const denied = await call('PreToolUse', 'mcp__memory__delete_entities', del);
    expect(denied.hookSpecificOutput.permissionDecision).toBe('deny');
    const reason = denied.hookSpecificOutput.permissionDecisionReason ?? '';
    expect(reason).toContain('[mcp.memory.delete');
    expect(reason).toContain(
      `tollgate predict --tool mcp__memory__delete_entities --args '{"entityNames":["alice"]}'`,
    );
    expect(reason).not.toContain('--for <command>');

    const read = await call(
      'PostToolUse',
      'mcp__memory__read_graph',
      {},
      {
        tool_response: [{ type: 'text', text: '{"entities":[{"name":"alice"},{"name":"bob"}]}' }],
      },
    );
    expect(read.hookSpecificOutput.additionalContext).toContain('recorded this read');
    const doc = {
      claims: [{ subject: { tool: 'read_graph', args: {} }, op: 'not_contains', value: 'alice' }],
      evidence: [{ source: { tool: 'read_graph', args: {} }, quote: '"name":"alice"' }],
      rationale: 'deleting alice removes it from the graph',
    };
    const filing = `tollgate predict --tool mcp__memory__delete_entities --args '${JSON.stringify(del)}' --json-doc '${JSON.stringify(doc)}'`;
    const bound = await call('PreToolUse', 'Bash', { command: filing });
    expect(bound.hookSpecificOutput.permissionDecision).toBe('allow');
    const rewritten = bound.hookSpecificOutput.updatedInput?.command ?? 'false';
    expect(execFileSync('/bin/sh', ['-c', rewritten], { cwd: r.work, encoding: 'utf8' })).toContain(
      'recorded prediction',
    );
    // The rewritten line is the agent's own tollgate command, never an observation source.
    const after = await call(
      'PostToolUse',
      'Bash',
      { command: rewritten },
      { tool_response: { stdout: 'recorded prediction', stderr: '' } },
    );
    expect(after.hookSpecificOutput.additionalContext ?? '').not.toContain('recorded this read');

    const allowed = await call('PreToolUse', 'mcp__memory__delete_entities', del);
    expect(allowed.hookSpecificOutput.permissionDecision).not.toBe('deny');
    expect(allowed.hookSpecificOutput.additionalContext ?? JSON.stringify(allowed)).toContain('accepted');
    const done = await call('PostToolUse', 'mcp__memory__delete_entities', del, {
      tool_response: [{ type: 'text', text: 'deleted' }],
    });
    expect(done.hookSpecificOutput.additionalContext).toContain('recorded the outcome');
    const rows = JSON.parse(
      (await tollgate(['audit', 'list', '--json', '--session', mcpSession], { cwd: r.work })).stdout,
    ) as { kind: string; outcome?: string; call?: { tool: string; action?: string } }[];
    const decision = rows.find((row) => row.kind === 'decision' && row.outcome === 'dispatch');
    expect(JSON.stringify(decision)).toContain('mcp__memory__delete_entities');
  });
});
