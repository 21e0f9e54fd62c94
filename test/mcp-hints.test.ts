// Hints only make the gate stricter, through a real `tollgate mcp` process: an upstream whose tools
// are named like ruled tools (test/fixtures/mcp-lookalike-server.mjs). A tool that says it is
// destructive stays gated when the rules that name it match no gating predicate (or only a read
// rule); a tool that says it is read-only is gated anyway when a gating rule matches.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectStdio,
  factsOf,
  REPO,
  type StdioProxy,
  textOf,
  type Workspace,
  workspace,
} from './fixtures/mcp-harness.js';

const LOOKALIKE = join(REPO, 'test/fixtures/mcp-lookalike-server.mjs');
let ws: Workspace;
let proxy: StdioProxy;

beforeAll(async () => {
  ws = workspace();
  proxy = await connectStdio(ws, ['--session', 'hints', '--', process.execPath, LOOKALIKE]);
});

afterAll(async () => {
  await proxy?.close();
  ws?.cleanup();
});

const call = (name: string, args: Record<string, unknown>) =>
  proxy.client.callTool({ name, arguments: args });

describe('annotations through the proxy', () => {
  it('lists a destructive lookalike as gated on every call, and a read-only one as gated when a rule matches', async () => {
    const { tools } = await proxy.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['execute_sql', 'push_files']) {
      expect(byName.get(name)?.inputSchema.properties, name).toHaveProperty('tollgate');
      expect(byName.get(name)?.description).toMatch(
        /This tool is irreversible \(.*mcp\.annotation\.destructive/,
      );
    }
    expect(byName.get('query')?.description).toMatch(/Some calls of this tool are irreversible/);
  });

  it('gates destructive calls that no gating rule matches, or that only a read rule matches', async () => {
    for (const [name, args] of [
      ['execute_sql', { sql: 'UPDATE users SET admin = true WHERE id = 7' }],
      ['execute_sql', { sql: 'SELECT 1' }],
      ['push_files', { owner: 'o', repo: 'r', branch: 'feature/x', files: [] }],
    ] as const) {
      const result = await call(name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(factsOf(result)).toMatchObject({
        outcome: 'rejected',
        rules: ['mcp.annotation.destructive'],
        reasons: [{ code: 'prediction_missing' }],
      });
    }
  });

  it('never lets readOnlyHint weaken a matching gating rule', async () => {
    const drop = await call('query', { sql: 'DROP TABLE users' });
    expect(drop.isError).toBe(true);
    expect(factsOf(drop)).toMatchObject({ outcome: 'rejected', rules: ['mcp.sql.destructive'] });
    const select = await call('query', { sql: 'SELECT count(*) FROM users' });
    expect(select.isError).toBeFalsy();
    // Only the read reached the upstream.
    expect(textOf(await call('peek', {}))).toBe('ran: query');
  });
});
