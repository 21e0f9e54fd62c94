// The proxy in front of @modelcontextprotocol/server-memory (a real process, its graph in a temp
// file): additive writes pass, an unguarded delete_entities is refused and the graph is untouched, a
// decline deletes nothing, and a prediction citing read_graph dispatches and is probed.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  connectStdio,
  factsOf,
  MEMORY_SERVER,
  type StdioProxy,
  textOf,
  type Workspace,
  workspace,
} from './fixtures/mcp-harness.js';

let ws: Workspace;
let proxy: StdioProxy;
const graph = { tool: 'read_graph', args: {} };

beforeAll(async () => {
  ws = workspace();
  proxy = await connectStdio(ws, ['--session', 'mem-e2e', '--', process.execPath, MEMORY_SERVER]);
  const created = await proxy.client.callTool({
    name: 'create_entities',
    arguments: {
      entities: [
        { name: 'release-1.3', entityType: 'release', observations: ['approved'] },
        { name: 'release-1.4', entityType: 'release', observations: ['draft'] },
      ],
    },
  });
  expect(created.isError).toBeFalsy();
});

afterAll(async () => {
  await proxy?.close();
  ws?.cleanup();
});

const stored = () => readFileSync(ws.memoryFile, 'utf8');

describe('memory through the proxy', () => {
  it('lets additive writes through unguarded (their annotations say not destructive)', async () => {
    expect(stored()).toContain('release-1.3');
    const { tools } = await proxy.client.listTools();
    expect(tools.find((t) => t.name === 'create_entities')?.inputSchema.properties).not.toHaveProperty(
      'tollgate',
    );
    expect(tools.find((t) => t.name === 'delete_entities')?.inputSchema.properties).toHaveProperty(
      'tollgate',
    );
  });

  it('refuses an unguarded delete_entities with rails and leaves the graph untouched', async () => {
    const before = stored();
    const result = await proxy.client.callTool({
      name: 'delete_entities',
      arguments: { entityNames: ['release-1.3'] },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toContain('read_graph {}');
    expect(factsOf(result)).toMatchObject({
      outcome: 'rejected',
      rules: ['mcp.memory.delete', 'mcp.delete'],
    });
    expect(stored()).toBe(before);
  });

  it('records a decline and deletes nothing', async () => {
    const before = stored();
    await proxy.client.callTool({ name: 'read_graph', arguments: {} });
    const result = await proxy.client.callTool({
      name: 'delete_entities',
      arguments: {
        entityNames: ['release-1.3'],
        tollgate: {
          decline: {
            irreducible: 'whether release 1.3 is still referenced elsewhere',
            would_change_my_mind: ['a search showing no relation points at release-1.3'],
            attempted_observations: [{ source: graph }],
          },
        },
      },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ tollgate: { outcome: 'declined' } });
    expect(stored()).toBe(before);
  });

  it('dispatches a prediction citing read_graph, and the probe matches it against the new graph', async () => {
    const read = await proxy.client.callTool({ name: 'read_graph', arguments: {} });
    expect(textOf(read)).toContain('release-1.4');
    const result = await proxy.client.callTool({
      name: 'delete_entities',
      arguments: {
        entityNames: ['release-1.4'],
        tollgate: {
          prediction: {
            claims: [
              { subject: graph, op: 'not_contains', value: 'release-1.4' },
              { subject: graph, op: 'contains', value: 'release-1.3' },
            ],
            // What the read showed about the entity (its name alone is what the call carries: no evidence).
            evidence: [{ source: graph, quote: 'draft' }],
            rationale: 'the draft release goes, the approved one stays',
          },
        },
      },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(stored()).not.toContain('release-1.4');
    const rows = await auditRows(ws);
    const outcome = rows.at(-1);
    expect(outcome).toMatchObject({ kind: 'outcome', tool: 'delete_entities', result: { status: 'ok' } });
    expect(outcome?.claims?.map((c) => c.result)).toEqual(['matched', 'matched']);
  });
});
