// A scripted Claude Code session against a rule that wants a person (issue 13): real-shaped hook
// payloads fed to the built binary. Headless (`claude -p`): refused with a review id and how to
// approve it; the agent cannot approve its own request (not through the hook, not from a shell
// without a terminal); a person approves at a pseudo-terminal (script(1)); the same call passes
// exactly once; the next needs a new review; a denial is final. With a person at the terminal: the
// hook answers `ask`, and the PostToolUse that shows the call ran records the approval, paired by
// tool_use_id, so a made-up PostToolUse records nothing.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, lastJson, scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';

interface HookAnswer {
  hookSpecificOutput: {
    hookEventName: string;
    permissionDecision?: string;
    permissionDecisionReason?: string;
    additionalContext?: string;
  };
}

const POLICY = `schema: tollgate.policy/v1
rules:
  - id: release.publish
    description: publishing a release needs a person
    tool: shell
    match:
      segment:
        type: object
        required: [program, args]
        properties:
          program: { const: release-tool }
          args: { type: array, contains: { const: publish } }
    class: irreversible
    severity: high
    review: required
`;
const RELEASE = 'release-tool publish v1.4';
const ID = /review ([0-9A-HJKMNP-TV-Z]{26})/;
const FILED = /filed review ([0-9A-HJKMNP-TV-Z]{26})/;

let repo: ReturnType<typeof scratchRepo>;
let env: Record<string, string>;
beforeAll(() => {
  repo = scratchRepo();
  writeFileSync(join(repo.work, 'review.policy.yaml'), POLICY);
  const config = join(repo.work, 'tollgate.config.yaml');
  writeFileSync(config, 'policies: [builtin:shell, review.policy.yaml]\n');
  env = { TOLLGATE_CONFIG: config, TOLLGATE_DB: join(repo.root, 'gate.db') };
});
afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

let uses = 0;
function payload(session: string, event: string, command: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    session_id: session,
    transcript_path: `/home/u/.claude/projects/x/${session}.jsonl`,
    cwd: repo.work,
    permission_mode: 'default',
    hook_event_name: event,
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: `toolu_${++uses}`,
    ...extra,
  });
}

/** The hook as Claude Code runs it: headless (`-p`) unless `entry` says the interactive CLI. */
async function hook(input: string, entry = 'sdk-cli'): Promise<HookAnswer> {
  const answer = await tollgate(['hook', 'claude-code'], {
    cwd: repo.work,
    input,
    env: { ...env, CLAUDE_CODE_ENTRYPOINT: entry },
  });
  expect(answer.code, answer.stderr).toBe(0);
  return lastJson<HookAnswer>(answer.stdout);
}

/** A person at a terminal: script(1) gives the CLI a pseudo-terminal; no agent host in the environment. */
function atTerminal(args: string[]): { code: number; out: string } {
  const line = [process.execPath, BIN, ...args].map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const childEnv: NodeJS.ProcessEnv = { ...env };
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('TOLLGATE_') && !k.startsWith('CLAUDE')) childEnv[k] = v;
  const child = spawnSync('script', ['-qec', line, '/dev/null'], {
    cwd: repo.work,
    env: childEnv,
    encoding: 'utf8',
  });
  return { code: child.status ?? -1, out: child.stdout };
}

const decision = (a: HookAnswer) => a.hookSpecificOutput.permissionDecision;
const reasonOf = (a: HookAnswer) => a.hookSpecificOutput.permissionDecisionReason ?? '';

async function auditRows(): Promise<
  {
    kind: string;
    session: string;
    outcome?: string;
    review_id?: string;
    review?: { person: string; answer: string; id: string };
  }[]
> {
  const listed = await tollgate(['audit', 'list', '--json', '--limit', '1000'], { cwd: repo.work, env });
  return JSON.parse(listed.stdout);
}

describe('headless (claude -p): refused with a review id; a person approves at a terminal', () => {
  const session = 'cc-headless';
  let id = '';

  it('refuses the call, naming the review and how a person approves it; retrying names the same one', async () => {
    const first = await hook(payload(session, 'PreToolUse', RELEASE));
    expect(decision(first)).toBe('deny');
    id = ID.exec(reasonOf(first))?.[1] ?? '';
    expect(id, reasonOf(first)).not.toBe('');
    expect(reasonOf(first)).toContain('review_required');
    expect(reasonOf(first)).toContain(`tollgate review approve ${id} --reason`);
    const again = await hook(payload(session, 'PreToolUse', RELEASE));
    expect(decision(again)).toBe('deny');
    expect(ID.exec(reasonOf(again))?.[1]).toBe(id);
  });

  it('the agent cannot approve its own request: not through the hook, not from a shell without a terminal', async () => {
    for (const command of [
      `tollgate review approve ${id} --reason ok`,
      `npx tollgate review approve ${id} --reason ok`,
      `node ${BIN} review approve ${id} --reason ok --operator me`,
    ]) {
      const answer = await hook(payload(session, 'PreToolUse', command));
      expect(decision(answer), command).toBe('deny');
      expect(reasonOf(answer), command).toContain('for human operators');
    }
    // Its shell has no terminal: the person check refuses, and says why.
    const piped = await tollgate(['review', 'approve', id, '--reason', 'ok', '--operator', 'me'], {
      cwd: repo.work,
      env,
    });
    expect(piped.code).toBe(1);
    expect(piped.stderr).toContain('not an interactive terminal');
    // Under Claude Code (its marker in the environment) a terminal is not enough either.
    const inside = await tollgate(['review', 'approve', id, '--reason', 'ok', '--operator', 'me'], {
      cwd: repo.work,
      env: { ...env, CLAUDE_CODE_ENTRYPOINT: 'cli' },
    });
    expect(inside.code).toBe(1);
    expect(inside.stderr).toContain('agent session');
    expect(decision(await hook(payload(session, 'PreToolUse', RELEASE)))).toBe('deny');
  });

  it("the agent cannot add or redirect a webhook: the config is the gate's own file", async () => {
    const config = join(repo.work, 'tollgate.config.yaml');
    const write = await hook(
      JSON.stringify({
        session_id: session,
        cwd: repo.work,
        permission_mode: 'default',
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: {
          file_path: config,
          content: 'notify: { webhooks: [{ url: "http://127.0.0.1:9/x" }] }\n',
        },
        tool_use_id: 'toolu_cfg',
      }),
    );
    expect(decision(write)).toBe('deny');
    expect(reasonOf(write)).toContain('operator_required');
    const append = await hook(payload(session, 'PreToolUse', `printf 'notify: {}\\n' >> ${config}`));
    expect(decision(append)).toBe('deny');
    expect(reasonOf(append)).toContain('operator_required');
  });

  it('approved by a person at a terminal, the same call passes exactly once; the next needs a new review', async () => {
    const approved = atTerminal([
      'review',
      'approve',
      id,
      '--reason',
      'release notes checked',
      '--operator',
      'alice',
    ]);
    expect(approved.code, approved.out).toBe(0);
    expect(approved.out).toContain(`review ${id} approved by alice`);
    // Another call in the session is not covered.
    const other = await hook(payload(session, 'PreToolUse', 'release-tool publish v9.9'));
    expect(decision(other)).toBe('deny');
    expect(ID.exec(reasonOf(other))?.[1]).not.toBe(id);

    const passed = await hook(payload(session, 'PreToolUse', RELEASE));
    expect(decision(passed)).toBeUndefined();
    const next = await hook(payload(session, 'PreToolUse', RELEASE));
    expect(decision(next)).toBe('deny');
    const fresh = FILED.exec(reasonOf(next))?.[1];
    expect(fresh, reasonOf(next)).toBeDefined();
    expect(fresh).not.toBe(id);
    expect(reasonOf(next)).toContain(`review ${id} was approved once and is used up`);

    const rows = (await auditRows()).filter((r) => r.session === session);
    expect(rows.filter((r) => r.outcome === 'dispatch' && r.review_id === id)).toHaveLength(1);
    expect(rows.filter((r) => r.kind === 'review').map((r) => r.review?.person)).toEqual(['alice']);
  });

  it('a denial is final: the call stays refused and the agent is told not to retry', async () => {
    const refused = await hook(payload(session, 'PreToolUse', RELEASE));
    const fresh = ID.exec(reasonOf(refused))?.[1] as string;
    expect(reasonOf(refused)).toContain(`pending`);
    const denied = atTerminal(['review', 'deny', fresh, '--reason', 'not this week', '--operator', 'bob']);
    expect(denied.code, denied.out).toBe(0);
    const after = await hook(payload(session, 'PreToolUse', RELEASE));
    expect(decision(after)).toBe('deny');
    expect(reasonOf(after)).toContain(`bob denied review ${fresh}`);
    expect(reasonOf(after)).toContain('do not retry');
    // A late approval of the denied request is refused.
    const late = atTerminal(['review', 'approve', fresh, '--reason', 'changed my mind', '--operator', 'bob']);
    expect(late.code).toBe(1);
    expect(decision(await hook(payload(session, 'PreToolUse', RELEASE)))).toBe('deny');
    const verify = await tollgate(['audit', 'verify'], { cwd: repo.work, env });
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  });
});

describe('a person at the terminal (interactive claude): ask, and the host approval recorded', () => {
  const session = 'cc-interactive';

  it('answers ask with the review text; the PostToolUse that shows the call ran records the approval once', async () => {
    const pre = payload(session, 'PreToolUse', RELEASE);
    const asked = await hook(pre, 'cli');
    expect(decision(asked)).toBe('ask');
    const id = ID.exec(reasonOf(asked))?.[1] as string;
    expect(id).toBeDefined();
    expect(reasonOf(asked)).toContain(RELEASE);
    expect(reasonOf(asked)).toContain('release.publish');
    // The person approved in Claude Code's prompt: the call ran, and its PostToolUse comes back.
    const toolUse = JSON.parse(pre).tool_use_id as string;
    const post = await hook(
      payload(session, 'PostToolUse', RELEASE, {
        tool_use_id: toolUse,
        tool_response: { stdout: 'published' },
      }),
      'cli',
    );
    expect(post.hookSpecificOutput.additionalContext).toContain(
      `approved this call in Claude Code's prompt (review ${id}`,
    );
    const reviews = (await auditRows()).filter((r) => r.kind === 'review' && r.session === session);
    expect(reviews.map((r) => [r.review?.id, r.review?.person, r.review?.answer])).toEqual([
      [id, 'host:claude-code', 'approved'],
    ]);
    // The approval was used by the call that ran: the next attempt asks again, under a new review.
    const again = await hook(payload(session, 'PreToolUse', RELEASE), 'cli');
    expect(decision(again)).toBe('ask');
    expect(ID.exec(reasonOf(again))?.[1]).toBeDefined();
    expect(ID.exec(reasonOf(again))?.[1]).not.toBe(id);
    // The same PostToolUse replayed records nothing more.
    await hook(
      payload(session, 'PostToolUse', RELEASE, { tool_use_id: toolUse, tool_response: { stdout: 'x' } }),
      'cli',
    );
    expect((await auditRows()).filter((r) => r.kind === 'review' && r.session === session)).toHaveLength(1);
  });

  it('a PostToolUse that pairs with no refused call records nothing, and the request stays pending', async () => {
    const s = 'cc-forged';
    const asked = await hook(payload(s, 'PreToolUse', RELEASE), 'cli');
    const id = ID.exec(reasonOf(asked))?.[1] as string;
    const forged = await hook(
      payload(s, 'PostToolUse', RELEASE, { tool_use_id: 'toolu_made_up', tool_response: { stdout: 'ok' } }),
      'cli',
    );
    expect(forged.hookSpecificOutput.additionalContext ?? '').not.toContain('approved');
    expect((await auditRows()).filter((r) => r.kind === 'review' && r.session === s)).toEqual([]);
    const still = await hook(payload(s, 'PreToolUse', RELEASE), 'cli');
    expect(ID.exec(reasonOf(still))?.[1]).toBe(id);
  });

  it('when unsure a person is there, the deny form: auto/bypass/dontAsk/acceptEdits modes, -p, no entrypoint, CI', async () => {
    const s = 'cc-unsure';
    for (const mode of ['auto', 'bypassPermissions', 'dontAsk', 'acceptEdits', undefined]) {
      const answer = await hook(payload(s, 'PreToolUse', RELEASE, { permission_mode: mode }), 'cli');
      expect(decision(answer), String(mode)).toBe('deny');
      expect(reasonOf(answer)).toContain('tollgate review approve');
    }
    for (const entry of ['sdk-cli', 'sdk-ts', '']) {
      expect(decision(await hook(payload(s, 'PreToolUse', RELEASE), entry)), entry).toBe('deny');
    }
    const ci = await tollgate(['hook', 'claude-code'], {
      cwd: repo.work,
      input: payload(s, 'PreToolUse', RELEASE),
      env: { ...env, CLAUDE_CODE_ENTRYPOINT: 'cli', CI: 'true' },
    });
    expect(decision(lastJson<HookAnswer>(ci.stdout))).toBe('deny');
    // A PostToolUse in headless mode records no approval even when it pairs.
    const pre = payload('cc-headless-post', 'PreToolUse', RELEASE);
    expect(decision(await hook(pre))).toBe('deny');
    await hook(
      payload('cc-headless-post', 'PostToolUse', RELEASE, {
        tool_use_id: JSON.parse(pre).tool_use_id,
        tool_response: { stdout: 'ran anyway' },
      }),
    );
    expect(
      (await auditRows()).filter((r) => r.kind === 'review' && r.session === 'cc-headless-post'),
    ).toEqual([]);
  });

  it('a denied request is not asked about again: it stays a refusal', async () => {
    const s = 'cc-denied-ask';
    const asked = await hook(payload(s, 'PreToolUse', RELEASE), 'cli');
    const id = ID.exec(reasonOf(asked))?.[1] as string;
    expect(atTerminal(['review', 'deny', id, '--reason', 'no', '--operator', 'carol']).code).toBe(0);
    const after = await hook(payload(s, 'PreToolUse', RELEASE), 'cli');
    expect(decision(after)).toBe('deny');
    expect(reasonOf(after)).toContain(`carol denied review ${id}`);
  });
});
