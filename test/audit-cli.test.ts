// The calibration loop through the real binary: `audit report` as tables, CSV and JSON over a window
// and by a dimension; `audit export` as JSON lines and CSV (every row, nothing held back); `audit
// replay --policy` naming exactly the recorded calls a new rule would gate.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lastJson, scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';

let repo: ReturnType<typeof scratchRepo>;
const run = (args: string[]) => tollgate(args, { cwd: repo.work, env: { TOLLGATE_SESSION: 'loop' } });
let statusIds: string[] = [];

beforeAll(async () => {
  repo = scratchRepo();
  for (let i = 0; i < 2; i++) await run(['run', '--', 'git', 'status']);
  await run(['run', '--', 'git', 'push', '--force', 'origin', 'main']);
  await run(['run', '--', 'git', 'clean', '-fdx']);
  const rows = JSON.parse((await run(['audit', 'list', '--json'])).stdout) as {
    id: string;
    kind: string;
    call?: { args?: { command?: string } };
  }[];
  statusIds = rows
    .filter((r) => r.kind === 'decision' && r.call?.args?.command === 'git status')
    .map((r) => r.id);
  expect(statusIds).toHaveLength(2);
}, 60_000);
afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

it('report: readable tables, --by, --csv and --json agree', async () => {
  const json = lastJson<{
    schema: string;
    totals: { decisions: number; by_outcome: Record<string, number> };
    groups: { key: string; decisions: number }[];
    never_fired: string[];
    rules: { rule: string; refusals: number }[];
  }>((await run(['audit', 'report', '--json', '--by', 'tool', '--since', '1d'])).stdout);
  expect(json.schema).toBe('tollgate.report/v1');
  expect(json.totals.decisions).toBe(4);
  expect(json.totals.by_outcome).toMatchObject({ pass: 2, rejected: 2 });
  expect(json.groups).toEqual([expect.objectContaining({ key: 'shell', decisions: json.totals.decisions })]);
  expect(json.never_fired.length).toBeGreaterThan(10);
  expect(json.rules.find((r) => r.rule === 'git.push.force')?.refusals).toBe(1);

  const text = await run(['audit', 'report']);
  expect(text.code).toBe(0);
  for (const heading of ['by agent', 'by rule', 'per day (UTC)', 'rules', 'latency', 'mismatches', 'flags'])
    expect(text.stdout).toContain(`\n${heading}`);
  expect(text.stdout).toMatch(/git\.push\.force\s+1\s/);

  const csv = (await run(['audit', 'report', '--csv'])).stdout.trim().split('\n');
  expect(csv[0]?.startsWith('view,key,decisions,pass,dispatch,declined,rejected')).toBe(true);
  expect(csv[1]).toMatch(new RegExp(`^all,,${json.totals.decisions},`));

  const bad = await run(['audit', 'report', '--by', 'colour']);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('--by "colour" is not one of agent, rule, tool, session, day');
});

it('export: every row as JSON lines or CSV, in order', async () => {
  const rows = JSON.parse((await run(['audit', 'list', '--json'])).stdout) as { id: string }[];
  const jsonl = (await run(['audit', 'export'])).stdout.trim().split('\n');
  expect(jsonl.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(rows.map((r) => r.id));
  const csv = (await run(['audit', 'export', '--format', 'csv'])).stdout.trim().split('\n');
  expect(csv).toHaveLength(rows.length + 1);
  expect(csv[0]?.startsWith('seq,id,at,kind,session')).toBe(true);
  expect(csv[1]).toContain(rows[0]?.id);
  expect((await run(['audit', 'export', '--since', '2999-01-01T00:00:00Z'])).stdout).toBe('');
});

it('replay: a policy that adds a rule names exactly the calls it would gate', async () => {
  const file = join(repo.root, 'watch-status.yaml');
  writeFileSync(
    file,
    `schema: tollgate.policy/v1
rules:
  - id: watch.git-status
    description: a made-up rule for the replay test
    tool: shell
    match:
      segment:
        type: object
        required: [program, subcommand]
        properties: { program: { const: git }, subcommand: { const: status } }
    class: irreversible
    severity: low
`,
  );
  const result = lastJson<{
    schema: string;
    newly_gated: { count: number; rows: { audit_id: string; rules_after: string[] }[] };
    no_longer_gated: { count: number };
    by_rule: Record<string, { newly_gated: number; no_longer_gated: number }>;
  }>((await run(['audit', 'replay', '--policy', file, '--json', '--since', '7d'])).stdout);
  expect(result.schema).toBe('tollgate.replay/v1');
  expect(result.newly_gated.count).toBe(2);
  expect(result.newly_gated.rows.map((r) => r.audit_id)).toEqual(statusIds);
  expect(result.by_rule['watch.git-status']?.newly_gated).toBe(2);
  // The configured catalogues are replaced: the push and the clean are no longer gated under FILE alone.
  expect(result.no_longer_gated.count).toBe(2);
  const text = await run(['audit', 'replay', '--policy', file]);
  expect(text.stdout).toContain('2 newly gated, 2 no longer gated');
  const missing = await run(['audit', 'replay']);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain('audit replay needs --policy FILE');
});
