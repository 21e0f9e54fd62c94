// Review notices (issue 13) end to end: a call refused for review through the real hook process
// announces the request to every webhook in the config — received by a local server on 127.0.0.1 in
// both formats (JSON, Slack) — without waiting on a slow one; a webhook that answers 500 or refuses
// the connection is retried with back-off, every attempt recorded on the request (review show) and
// logged by name, never by URL or header; and nothing of it lets the call through.

import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastJson, scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';
import { startServe } from './support/serve.js';

const OPS = 'operator-secret-0123456789';
const HEADER_SECRET = 'Bearer hdr-s3cret-42';
const PATH_SECRET = 'T0KEN-in-the-path';
const POLICY = `schema: tollgate.policy/v1
rules:
  - id: release.publish
    description: publishing a release needs a person
    tool: shell
    match:
      segment: { type: object, required: [program], properties: { program: { const: release-tool } } }
    class: irreversible
    severity: high
    review: required
`;

interface Received {
  path: string;
  at: number;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

let repo: ReturnType<typeof scratchRepo>;
let server: Server;
let refusedPort = 0;
const received: Received[] = [];
let env: Record<string, string>;

async function listen(s: Server): Promise<number> {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return (s.address() as AddressInfo).port;
}

beforeAll(async () => {
  repo = scratchRepo();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({
        path,
        at: Date.now(),
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'),
      });
      const reply = () => {
        res.statusCode = path.startsWith('/fail') ? 500 : 200;
        res.end('{}');
      };
      // The slow webhook answers after 8 s: the hook must not wait for it.
      if (path === '/slow') setTimeout(reply, 8000);
      else reply();
    });
  });
  const port = await listen(server);
  const closed = createServer();
  refusedPort = await listen(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const base = `http://127.0.0.1:${port}`;
  writeFileSync(join(repo.work, 'review.policy.yaml'), POLICY);
  const config = join(repo.work, 'tollgate.config.yaml');
  writeFileSync(
    config,
    `policies: [builtin:shell, review.policy.yaml]
tokens:
  - { token: "${OPS}", agent: oncall, operator: true }
notify:
  dashboard_url: http://127.0.0.1:${port}/dash/
  webhooks:
    - { name: ops-json, url: "${base}/json", headers: { Authorization: "${HEADER_SECRET}" } }
    - { name: ops-slack, url: "${base}/slack", format: slack }
    - { name: slow, url: "${base}/slow", timeout_ms: 15000 }
    - { name: broken, url: "${base}/fail/${PATH_SECRET}", retries: 2 }
    - { url: "http://127.0.0.1:${refusedPort}/hook", retries: 1, timeout_ms: 1000 }
`,
  );
  env = {
    TOLLGATE_CONFIG: config,
    TOLLGATE_DB: join(repo.root, 'gate.db'),
    TOLLGATE_STATE_DIR: join(repo.root, 'state'),
  };
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(repo.root, { recursive: true, force: true });
});

const pre = (command: string, id: string) =>
  JSON.stringify({
    session_id: 'notify-1',
    cwd: repo.work,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: id,
  });

async function until<T>(probe: () => T | undefined, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface ReviewView {
  id: string;
  state: string;
  notifications?: {
    target: string;
    attempts: number;
    delivered_at?: number;
    last_error?: string;
    next_at?: number;
  }[];
}

describe('review notices', () => {
  let id = '';
  let filedAt = 0;

  it('the hook answers at once and names the review; the notice goes out behind it', async () => {
    filedAt = Date.now();
    const started = performance.now();
    const answer = await tollgate(['hook', 'claude-code'], {
      cwd: repo.work,
      env,
      input: pre('release-tool publish v2', 'toolu_n1'),
    });
    const elapsed = performance.now() - started;
    const out = lastJson<{
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    }>(answer.stdout);
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    id =
      /filed review ([0-9A-HJKMNP-TV-Z]{26})/.exec(out.hookSpecificOutput.permissionDecisionReason)?.[1] ??
      '';
    expect(id).not.toBe('');
    // The slow webhook takes 8 s to answer; the hook process was done long before.
    expect(elapsed).toBeLessThan(6000);
    console.log(`hook answered in ${elapsed.toFixed(0)} ms with 5 webhooks configured`);
  });

  it('delivers the JSON body (with the header) and the Slack body to the local server', async () => {
    const json = await until(() => received.find((r) => r.path === '/json'), 10_000);
    expect(json.headers.authorization).toBe(HEADER_SECRET);
    expect(json.headers['content-type']).toBe('application/json');
    expect(json.body).toMatchObject({
      schema: 'tollgate.review-request/v1',
      id,
      rule: 'release.publish',
      call: { tool: 'shell', summary: 'release-tool publish v2' },
      session: 'notify-1',
      agent: 'claude-code',
      approve: `tollgate review approve ${id} --reason …`,
      link: expect.stringMatching(new RegExp(`/dash/#review-${id}$`)),
    });
    expect(Date.parse(String(json.body.expires_at)) - Date.parse(String(json.body.created_at))).toBe(
      24 * 3600_000,
    );
    expect(json.body.reasons).toEqual(expect.any(Array));
    const slack = await until(() => received.find((r) => r.path === '/slack'), 10_000);
    expect(slack.headers.authorization).toBeUndefined();
    expect(typeof slack.body.text).toBe('string');
    expect(slack.body.text).toContain(id);
    expect(slack.body.text).toContain('release-tool publish v2');
    const blocks = slack.body.blocks as { type: string }[];
    expect(blocks.map((b) => b.type)).toEqual(expect.arrayContaining(['section', 'context']));
    expect(JSON.stringify(blocks)).toContain(`tollgate review approve ${id}`);
    expect(await until(() => received.find((r) => r.path === '/slow'), 10_000)).toBeDefined();
  });

  it('retries a 500 and a refused connection with back-off, records each attempt, and lets nothing through', async () => {
    // broken: 1 + 2 retries (1 s, then 2 s later); the refused one: 1 + 1 retry.
    const fails = await until(() => {
      const hits = received.filter((r) => r.path.startsWith('/fail'));
      return hits.length >= 3 ? hits : undefined;
    }, 20_000);
    const gaps = fails.slice(1).map((f, i) => f.at - (fails[i] as Received).at);
    expect(gaps[0]).toBeGreaterThanOrEqual(900);
    expect(gaps[1]).toBeGreaterThanOrEqual(1900);
    const show = async () => {
      const r = await tollgate(['review', 'show', id, '--json'], {
        cwd: repo.work,
        env: { ...env, TOLLGATE_OPERATOR_TOKEN: OPS },
      });
      return lastJson<ReviewView>(r.stdout);
    };
    let shown = await show();
    for (let i = 0; i < 60 && (shown.notifications ?? []).some((n) => n.next_at !== undefined); i++) {
      await new Promise((r) => setTimeout(r, 250));
      shown = await show();
    }
    const by = Object.fromEntries((shown.notifications ?? []).map((n) => [n.target, n]));
    expect(Object.keys(by).sort()).toEqual(
      ['broken', 'ops-json', 'ops-slack', 'slow', `webhook-5@127.0.0.1:${refusedPort}`].sort(),
    );
    expect(by['ops-json']).toMatchObject({
      attempts: 1,
      delivered_at: expect.stringMatching(/^2\d{3}-.*Z$/),
    });
    expect(by['ops-slack']).toMatchObject({
      attempts: 1,
      delivered_at: expect.stringMatching(/^2\d{3}-.*Z$/),
    });
    expect(by.slow).toMatchObject({ attempts: 1, delivered_at: expect.stringMatching(/^2\d{3}-.*Z$/) });
    expect(by.broken).toMatchObject({ attempts: 3, last_error: 'HTTP 500' });
    expect(by.broken?.delivered_at).toBeUndefined();
    expect(by[`webhook-5@127.0.0.1:${refusedPort}`]).toMatchObject({
      attempts: 2,
      last_error: 'connection failed (ECONNREFUSED)',
    });
    expect(shown.state).toBe('pending');
    // Exactly one notice per working webhook: the claims kept drainers from posting twice.
    expect(received.filter((r) => r.path === '/json')).toHaveLength(1);
    expect(fails).toHaveLength(3);

    // review show (text) prints each webhook's state.
    const text = await tollgate(['review', 'show', id], {
      cwd: repo.work,
      env: { ...env, TOLLGATE_OPERATOR_TOKEN: OPS },
    });
    expect(text.stdout).toContain('notice ops-json: delivered');
    expect(text.stdout).toContain('notice broken: failed (3 attempts, last: HTTP 500), gave up');

    // Logged by name; the header secret and the secret in the URL's path appear nowhere.
    const log = readFileSync(
      join(env.TOLLGATE_STATE_DIR as string, readdirOne(env.TOLLGATE_STATE_DIR as string), 'notify.log'),
      'utf8',
    );
    expect(log).toContain(`review ${id} webhook broken: attempt 3 failed: HTTP 500 (gave up)`);
    expect(log).toContain('ECONNREFUSED');
    for (const secret of [HEADER_SECRET, 'hdr-s3cret', PATH_SECRET]) {
      expect(log).not.toContain(secret);
      expect(text.stdout).not.toContain(secret);
      expect(JSON.stringify(shown)).not.toContain(secret);
    }

    // The call is still refused, naming the same request; no second notice is filed for it.
    const again = await tollgate(['hook', 'claude-code'], {
      cwd: repo.work,
      env,
      input: pre('release-tool publish v2', 'toolu_n2'),
    });
    const out = lastJson<{
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    }>(again.stdout);
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain(
      `review ${id} [release.publish] is pending`,
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(received.filter((r) => r.path === '/json')).toHaveLength(1);
    expect(Date.now() - filedAt).toBeLessThan(60_000);
  });
});

describe('review notices from tollgate serve (drained in-process)', () => {
  it('a request filed over HTTP is announced at once; a failing webhook is retried and logged by name', async () => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const config = join(repo.work, 'serve.config.yaml');
    writeFileSync(
      config,
      `policies: [builtin:shell, review.policy.yaml]
notify:
  webhooks:
    - { name: serve-json, url: "${base}/serve-json" }
    - { name: serve-broken, url: "${base}/fail/serve/${PATH_SECRET}", retries: 1, headers: { X-Key: "${HEADER_SECRET}" } }
`,
    );
    const spawned: ChildProcess[] = [];
    try {
      const { url, lines } = await startServe({
        cwd: repo.work,
        env: {
          TOLLGATE_CONFIG: config,
          TOLLGATE_DB: join(repo.root, 'serve.db'),
          TOLLGATE_STATE_DIR: join(repo.root, 'state'),
        },
        onSpawn: (child) => spawned.push(child),
      });
      const started = Date.now();
      const checked = await fetch(`${url}/v1/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          call: { tool: 'shell', args: { command: 'release-tool publish v3' }, session: 'h1' },
        }),
      });
      const verdict = (await checked.json()) as { outcome: string; review_id?: string };
      expect(verdict.outcome).toBe('rejected');
      expect(verdict.review_id).toBeDefined();
      const hit = await until(() => received.find((r) => r.path === '/serve-json'), 10_000);
      expect(hit.body).toMatchObject({ id: verdict.review_id, call: { summary: 'release-tool publish v3' } });
      // Kicked at once, not at the next tick.
      expect(hit.at - started).toBeLessThan(1500);
      await until(
        () => (received.filter((r) => r.path.startsWith('/fail/serve')).length >= 2 ? true : undefined),
        15_000,
      );
      const warned = await until(
        () => lines.find((l) => l.includes('review notice failed') && l.includes('"gave_up":true')),
        10_000,
      );
      expect(warned).toContain('serve-broken');
      expect(warned).toContain('HTTP 500');
      for (const secret of [PATH_SECRET, 'hdr-s3cret']) expect(lines.join('\n')).not.toContain(secret);
    } finally {
      for (const child of spawned) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    }
  });
});

function readdirOne(dir: string): string {
  const entries = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  const found = entries.find((e) => {
    try {
      readFileSync(join(dir, e.name, 'notify.log'));
      return true;
    } catch {
      return false;
    }
  });
  if (!found) throw new Error(`no notify.log under ${dir}`);
  return found.name;
}
