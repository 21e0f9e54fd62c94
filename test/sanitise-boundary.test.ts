// One sanitiser at every adapter's boundary, as a property: hook inputs and MCP calls whose tool
// names, arguments, commands and session ids are full of control, separator, format and bidi
// characters never put one of them (other than the adapter's own line feeds) into a text the model
// reads, whatever the verdict. The hook runs in-process against a real SQLite store; the MCP proxy is
// a real `tollgate mcp --listen 0` process in front of test/fixtures/mcp-lookalike-server.mjs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { compilePolicy, createGate, type Gate, readPolicySource, type Store } from '@tollgate/core';
import { type HookOutput, type HookRuntime, runClaudeCodeHook } from '@tollgate/hooks';
import { openStore } from '@tollgate/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectHttp,
  type HttpProxy,
  REPO,
  startHttpProxy,
  type Workspace,
  workspace,
} from './fixtures/mcp-harness.js';
import { FORBIDDEN } from './fuzz/support.js';

const UNITS = [
  '\u001b[31m',
  '\u001b]0;x\u0007',
  '\n',
  '\r',
  '\t',
  '\u0000',
  '\u0085',
  '\u009b',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
  '\u00ad',
  '\ufeff',
  '\u{e0041}',
  'a',
  'rm',
  ' ',
  '"',
  "'",
  '/',
];
const nasty = (min = 0) => fc.string({ unit: fc.constantFrom(...UNITS), minLength: min, maxLength: 24 });
const args = fc.dictionary(nasty(1), fc.oneof(nasty(), fc.integer()), { maxKeys: 3 });

function expectClean(texts: (string | undefined)[], context: unknown): void {
  for (const text of texts) {
    if (text === undefined) continue;
    expect(FORBIDDEN.test(text), `${JSON.stringify(text)} from ${JSON.stringify(context)}`).toBe(false);
  }
}

// A shell rule of this test's own (the shipped shell catalogue has rules enough of its own tests), so
// Bash calls get shell rails too.
const GIT_RULE = {
  file: 'git.yaml',
  text: JSON.stringify({
    rules: [
      {
        id: 'test.git',
        description: 'git changes repositories',
        tool: 'shell',
        match: {
          segment: { type: 'object', required: ['program'], properties: { program: { const: 'git' } } },
        },
        class: 'irreversible',
        severity: 'high',
        evidence: { max_age_s: 60, reads: ['git status'] },
      },
    ],
  }),
};

describe('the Claude Code hook', () => {
  let dir: string;
  let store: Store;
  let gate: Gate;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tollgate-sanitise-'));
    store = await openStore(join(dir, 'gate.db'));
    gate = createGate({
      policy: compilePolicy([...['builtin:files', 'builtin:mcp'].map(readPolicySource), GIT_RULE]),
      store,
      channel: 'claude-code',
    });
  });
  afterAll(async () => {
    await gate?.flush();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const runtime = (): HookRuntime => ({
    deps: {
      gate,
      store,
      self: [process.execPath, '/opt/tollgate/packages/cli/bin/tollgate.js'],
      storeEnv: {},
      cwd: dir,
    },
    close: async () => {},
  });
  const texts = (out: HookOutput) => [
    out.reason,
    out.hookSpecificOutput.permissionDecisionReason,
    out.hookSpecificOutput.additionalContext,
  ];

  it('never shows the model a forbidden character, whatever the verdict (property)', async () => {
    let denied = 0;
    let told = 0;
    const bash = fc.oneof(
      nasty(1),
      nasty().map((s) => `git push --force origin ${s}`),
      nasty().map((s) => `rm -rf /srv/${s}`),
      nasty().map((s) => `tollgate predict --for ${s} --json-doc '{}'`),
      nasty().map((s) => `npx tollgate override ${s}`),
      nasty().map((s) => `cat ${s}`),
    );
    const call = fc.oneof(
      bash.map((command) => ({ tool_name: 'Bash', tool_input: { command } as Record<string, unknown> })),
      fc.record({
        tool_name: fc.oneof(
          fc.tuple(nasty(1), nasty(1)).map(([s, t]) => `mcp__${s}__${t}`),
          nasty(1).map((s) => `mcp__srv__${s}`),
          fc.constantFrom('mcp__fs__write_file', 'mcp__fs__read_text_file', 'Write', 'Edit'),
          nasty(1),
        ),
        tool_input: args,
      }),
    );
    const input = fc.record({
      hook_event_name: fc.constantFrom('PreToolUse', 'PostToolUse', 'PostToolUseFailure'),
      session_id: nasty(1),
      call,
      response: nasty(),
    });
    await fc.assert(
      fc.asyncProperty(input, async ({ hook_event_name, session_id, call, response }) => {
        const body = JSON.stringify({
          hook_event_name,
          session_id,
          cwd: dir,
          ...call,
          tool_response: response,
          error: response,
        });
        const out = await runClaudeCodeHook(body, async () => runtime());
        expectClean(texts(out), { hook_event_name, session_id, call });
        if (out.hookSpecificOutput.permissionDecision === 'deny') denied++;
        if (out.hookSpecificOutput.additionalContext !== undefined) told++;
      }),
      // A fixed seed: the non-vacuity counts below must not depend on the draw.
      { numRuns: 200, seed: 20261122 },
    );
    // Not vacuous: many calls were refused with rails, and many answers told the model something.
    expect(denied).toBeGreaterThan(20);
    expect(told).toBeGreaterThan(20);
  });
});

describe('the MCP proxy', () => {
  let ws: Workspace;
  let proxy: HttpProxy;
  let client: Client;
  beforeAll(async () => {
    ws = workspace();
    const lookalike = join(REPO, 'test/fixtures/mcp-lookalike-server.mjs');
    proxy = await startHttpProxy(ws, ['--', process.execPath, lookalike]);
    client = await connectHttp(proxy.url);
  });
  afterAll(async () => {
    await client?.close().catch(() => {});
    await proxy?.stop();
    ws?.cleanup();
  });

  it('never shows the model a forbidden character, whatever the verdict (property)', async () => {
    const envelope = fc.oneof(
      fc.constant(undefined),
      nasty(),
      fc.record({ prediction: fc.record({ claims: fc.array(args, { maxLength: 2 }), evidence: args }) }),
      fc.record({
        decline: fc.record({
          irreducible: nasty(1),
          would_change_my_mind: fc.array(nasty(1), { minLength: 1, maxLength: 2 }),
          attempted_observations: fc.array(fc.record({ source: fc.record({ tool: nasty(1), args }) }), {
            minLength: 1,
            maxLength: 2,
          }),
        }),
      }),
    );
    const call = fc.record({
      name: fc.oneof(fc.constantFrom('execute_sql', 'push_files', 'query', 'tollgate_rules'), nasty(1)),
      args,
      sql: fc.oneof(
        nasty(),
        nasty().map((s) => `DROP TABLE ${s}`),
      ),
      envelope,
      session: fc.oneof(fc.constant(undefined), nasty(1), fc.integer()),
    });
    let refused = 0;
    let thrown = 0;
    await fc.assert(
      fc.asyncProperty(call, async ({ name, args, sql, envelope, session }) => {
        const context = { name, args, sql, envelope, session };
        try {
          const result = await client.callTool({
            name,
            arguments: {
              ...args,
              ...(name === 'tollgate_rules' ? { tool: sql } : { sql }),
              ...(envelope !== undefined ? { tollgate: envelope } : {}),
            },
            ...(session !== undefined ? { _meta: { 'tollgate/session': session } } : {}),
          });
          if (result.isError) refused++;
          const blocks = (result.content ?? []) as { type: string; text?: string }[];
          expectClean(
            blocks.map((b) => b.text),
            context,
          );
        } catch (error) {
          // An unknown tool is a protocol error; its message reaches the host, and may reach the model.
          thrown++;
          expectClean([(error as Error).message], context);
        }
      }),
      { numRuns: 80, seed: 20261122 },
    );
    expect(refused).toBeGreaterThan(10);
    expect(thrown).toBeGreaterThan(0);
  });
});
