// Claude Code's `http` hook against a real server, with payloads shaped as Claude Code sends them, in
// a scratch git repository with a bare remote: the force-push is denied with rails, a read is
// recorded, a filed prediction lets the push through, and PostToolUse stores predicted vs observed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellProbe } from '@tollgate/hooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveTestApp, type TestServer } from '../packages/http/src/testing/serve-test-app.js';

const work = mkdtempSync(join(tmpdir(), 'tollgate-http-hook-'));
const repo = join(work, 'repo');
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
const SESSION = '5c1d0a7e-2f4b-4c8e-9a61-3b7d2e8f0c11';
const PUSH = 'git push --force origin main';

const base = (event: string) => ({
  session_id: SESSION,
  transcript_path: `/home/u/.claude/projects/-repo/${SESSION}.jsonl`,
  cwd: repo,
  permission_mode: 'default',
  hook_event_name: event,
});
const bash = (event: string, command: string, extra: Record<string, unknown> = {}) => ({
  ...base(event),
  tool_name: 'Bash',
  tool_input: { command, description: 'run a command' },
  tool_use_id: `toolu_01${Math.random().toString(36).slice(2, 12)}`,
  ...extra,
});
const response = (stdout: string) => ({
  tool_response: { stdout, stderr: '', interrupted: false, isImage: false },
});

let s: TestServer;
let head: string;
beforeAll(async () => {
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', join(work, 'origin.git')]);
  execFileSync('git', ['clone', '-q', join(work, 'origin.git'), repo], { stdio: 'ignore' });
  git('config', 'user.email', 'agent@example.invalid');
  git('config', 'user.name', 'Agent');
  git('commit', '-q', '--allow-empty', '-m', 'first');
  git('push', '-q', 'origin', 'main');
  git('commit', '-q', '--amend', '--allow-empty', '-m', 'first, reworded');
  head = git('rev-parse', 'HEAD');
  s = await serveTestApp({
    policies: ['builtin:shell'],
    hook: { probe: shellProbe, cwd: repo, self: ['tollgate'] },
  });
});
afterAll(async () => {
  await s.close();
  rmSync(work, { recursive: true, force: true });
});

const hook = (payload: unknown) => s.call('POST', '/v1/hooks/claude-code', payload);

describe('POST /v1/hooks/claude-code', () => {
  test('the whole loop: deny with rails, record the read, dispatch, outcome with the probed post-state', async () => {
    const denied = await hook(bash('PreToolUse', PUSH));
    expect(denied.status).toBe(200);
    expect(denied.body.hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
    });
    expect(denied.body.hookSpecificOutput.permissionDecisionReason).toContain('git.push.force');

    const read = await hook({
      ...bash('PostToolUse', 'git rev-parse HEAD'),
      ...response(`${head}\n`),
      duration_ms: 12,
    });
    expect(read.body.hookSpecificOutput.hookEventName).toBe('PostToolUse');
    const observationId = /observation (\w{26})/.exec(read.body.hookSpecificOutput.additionalContext)?.[1];
    expect(observationId).toBeDefined();

    const filed = await s.call('POST', '/v1/predictions', {
      call: { tool: 'shell', args: { command: PUSH }, session: SESSION },
      prediction: {
        // The rule's own probe: the gate re-reads it after the push.
        claims: [{ subject: 'git ls-remote origin', op: 'contains', value: `${head}\trefs/heads/main` }],
        evidence: [{ observation: observationId, quote: head.slice(0, 12) }],
      },
    });
    expect(filed.status).toBe(201);

    // The host gives the call one tool-use id, in its PreToolUse and its PostToolUse alike.
    const pushId = 'toolu_01pushmain';
    const allowed = await hook(bash('PreToolUse', PUSH, { tool_use_id: pushId }));
    expect(allowed.body.hookSpecificOutput.permissionDecision).toBeUndefined();
    expect(allowed.body.hookSpecificOutput.additionalContext).toContain(
      `prediction ${filed.body.id} accepted`,
    );
    const auditId = /audit (\w{26})/.exec(allowed.body.hookSpecificOutput.additionalContext)?.[1] as string;

    execFileSync('git', ['push', '-q', '--force', 'origin', 'main'], { cwd: repo, stdio: 'ignore' });
    const post = await hook({ ...bash('PostToolUse', PUSH, { tool_use_id: pushId }), ...response('') });
    expect(post.body.hookSpecificOutput.additionalContext).toContain('claims matched 1');

    const view = await s.call('GET', `/v1/audit/${auditId}`);
    expect(view.body).toMatchObject({ outcome: 'dispatch', agent: 'claude-code', result: { status: 'ok' } });
    expect(view.body.claims[0]).toMatchObject({ result: 'matched' });
    expect(view.body.claims[0].observed).toContain(head);
  });

  test('a Bash `tollgate predict` is denied over HTTP, pointing to POST /v1/predictions: no store URL on a command line', async () => {
    const pg = await serveTestApp({
      policies: ['builtin:shell'],
      hook: { self: ['tollgate'], storeEnv: { TOLLGATE_DB: 'postgres://gate:s3cret@db.internal/tollgate' } },
    });
    try {
      const doc = JSON.stringify({ claims: [], evidence: [] });
      for (const command of [
        `tollgate predict --for '${PUSH}' --json-doc '${doc}'`,
        `npx -y tollgate decline --for '${PUSH}' --json-doc '${doc}'`,
      ]) {
        const r = await pg.call('POST', '/v1/hooks/claude-code', bash('PreToolUse', command));
        const out = r.body.hookSpecificOutput;
        expect(out.permissionDecision, command).toBe('deny');
        expect(out.updatedInput, command).toBeUndefined();
        expect(JSON.stringify(r.body), command).not.toMatch(/postgres|s3cret|TOLLGATE_DB/);
        expect(out.permissionDecisionReason, command).toMatch(/POST \/v1\/(predictions|declines)/);
        expect(out.permissionDecisionReason, command).toContain(SESSION);
      }
    } finally {
      await pg.close();
    }
  });

  test('reads of other tools are recorded; unknown tools pass', async () => {
    const readFile = {
      ...base('PostToolUse'),
      tool_name: 'Read',
      tool_input: { file_path: join(repo, 'README') },
      tool_response: { type: 'text', file: { filePath: join(repo, 'README'), content: 'hello' } },
    };
    expect((await hook(readFile)).body.hookSpecificOutput.additionalContext).toContain('observation');
    const mcp = {
      ...base('PreToolUse'),
      tool_name: 'mcp__notes__list',
      tool_input: {},
      tool_use_id: 'toolu_01x',
    };
    expect((await hook(mcp)).body.hookSpecificOutput.permissionDecision).toBeUndefined();
  });

  test('input the gate cannot read is a 200 deny naming the problem (a non-2xx would let the tool run)', async () => {
    const cases: [unknown, RegExp][] = [
      ['{"session_id": "x", ', /not valid JSON/],
      [{ ...base('Stop') }, /not one tollgate handles/],
      [{ ...base('PreToolUse'), tool_input: {} }, /tool_name/],
      [{ ...bash('PreToolUse', PUSH), session_id: '' }, /session_id/],
      [[1, 2], /not a JSON object/],
    ];
    for (const [payload, problem] of cases) {
      const r = await hook(payload);
      expect(r.status).toBe(200);
      expect(r.body.hookSpecificOutput.permissionDecision).toBe('deny');
      expect(r.body.hookSpecificOutput.permissionDecisionReason).toMatch(problem);
    }
    const wrongType = await s.call('POST', '/v1/hooks/claude-code', '{}', { 'content-type': 'text/plain' });
    expect(wrongType.status).toBe(200);
    expect(wrongType.body.decision).toBe('block');
  });
});

describe('the hook with tokens', () => {
  const TOKEN = 'hook-token-0123456789abcdef';
  let t: TestServer;
  beforeAll(async () => {
    t = await serveTestApp({ policies: ['builtin:shell'], tokens: [{ token: TOKEN, agent: 'laptop' }] });
  });
  afterAll(() => t.close());

  test('no token → a deny, not a 401 the host would ignore', async () => {
    const r = await t.call('POST', '/v1/hooks/claude-code', bash('PreToolUse', PUSH));
    expect(r.status).toBe(200);
    expect(r.body.hookSpecificOutput.permissionDecisionReason).toContain('bearer token');
  });

  test("with a token the hook acts in the agent's namespace", async () => {
    const headers = { authorization: `Bearer ${TOKEN}` };
    const r = await t.call(
      'POST',
      '/v1/hooks/claude-code',
      { ...bash('PostToolUse', 'git status'), ...response('ok') },
      headers,
    );
    expect(r.body.hookSpecificOutput.additionalContext).toContain('observation');
    const rows = await t.call('POST', '/v1/hooks/claude-code', bash('PreToolUse', PUSH), headers);
    expect(rows.body.hookSpecificOutput.permissionDecision).toBe('deny');
    const audit = await t.call('GET', '/v1/audit', undefined, headers);
    expect(audit.body.at(-1)).toMatchObject({
      session: `laptop/${SESSION}`,
      agent: 'laptop',
      outcome: 'rejected',
    });
  });
});

describe('hook observations over HTTP are attested only for a hook credential', () => {
  const AGENT_TOKEN = 'agent-token-0123456789abcdef';
  const HOOK_TOKEN = 'hook-cred-0123456789abcdefgh';
  let t: TestServer;
  beforeAll(async () => {
    t = await serveTestApp({
      policies: ['builtin:shell'],
      tokens: [
        { token: AGENT_TOKEN, agent: 'bot' },
        { token: HOOK_TOKEN, agent: 'laptop', hook: true },
      ],
    });
  });
  afterAll(() => t.close());

  // The host's PreToolUse then its PostToolUse for the same tool_use_id: a read is attested only
  // when the two pair (and, over HTTP, only for a hook credential).
  const observe = async (token: string, pre = true) => {
    const call = bash('PreToolUse', 'git rev-parse HEAD');
    const auth = { authorization: `Bearer ${token}` };
    if (pre) await t.call('POST', '/v1/hooks/claude-code', call, auth);
    const r = await t.call(
      'POST',
      '/v1/hooks/claude-code',
      { ...call, hook_event_name: 'PostToolUse', ...response('made-up output') },
      auth,
    );
    const id = /observation (\S+)\./.exec(r.body.hookSpecificOutput.additionalContext)?.[1] ?? '';
    return id;
  };

  test('an ordinary token posting a made-up tool_response gets an unattested observation', async () => {
    const id = await observe(AGENT_TOKEN);
    const obs = await t.store.getObservation(`bot/${SESSION}`, id);
    expect(obs).toMatchObject({ attested: false });
  });

  test('a hook credential records attested reads and may call nothing but the hook route', async () => {
    const id = await observe(HOOK_TOKEN);
    expect(await t.store.getObservation(`laptop/${SESSION}`, id)).toMatchObject({ attested: true });
    // A PostToolUse with no PreToolUse the gate decided pairs with nothing: recorded, not attested.
    const unpaired = await observe(HOOK_TOKEN, false);
    expect(await t.store.getObservation(`laptop/${SESSION}`, unpaired)).toMatchObject({ attested: false });
    const other = await t.call(
      'POST',
      '/v1/observations',
      { session: 's', source: 'ls', output: 'x' },
      {
        authorization: `Bearer ${HOOK_TOKEN}`,
      },
    );
    expect(other.status).toBe(403);
    expect(JSON.stringify(other.body)).toContain('hook credential');
    expect(
      (await t.call('GET', '/v1/audit', undefined, { authorization: `Bearer ${HOOK_TOKEN}` })).status,
    ).toBe(403);
  });
});
