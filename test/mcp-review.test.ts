// Reviews through the real MCP proxy (`tollgate mcp` in front of @modelcontextprotocol/server-memory):
// a tool a rule sends to a person is refused with a result naming the review and how to go on; an
// operator answers over HTTP (the app over the same store, as `tollgate serve` would be); the same
// call then passes exactly once, the next needs a new review; a denial is final; an agent token
// cannot answer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGate, loadPolicy, type Store } from '@tollgate/core';
import { createApp } from '@tollgate/http';
import { openStore } from '@tollgate/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectStdio,
  factsOf,
  MEMORY_SERVER,
  type StdioProxy,
  textOf,
  type Workspace,
  workspace,
} from './fixtures/mcp-harness.js';

const POLICY = join(import.meta.dirname, 'fixtures/review.policy.yaml');
const OPS = 'ops-token-0123456789abcdef';
const BOT = 'bot-token-0123456789abcdef';

let ws: Workspace;
let proxy: StdioProxy;
let store: Store;
let api: ReturnType<typeof createApp>;

beforeAll(async () => {
  ws = workspace({ policies: [POLICY] });
  proxy = await connectStdio(ws, ['--session', 'rv', '--', process.execPath, MEMORY_SERVER]);
  store = await openStore(join(ws.dir, 'gate.db'));
  api = createApp({
    gate: createGate({ policy: loadPolicy([POLICY]), store, channel: 'http' }),
    store,
    tokens: [
      { token: OPS, agent: 'ops', operator: true },
      { token: BOT, agent: 'bot' },
    ],
  });
  const created = await proxy.client.callTool({
    name: 'create_entities',
    arguments: {
      entities: ['a', 'b', 'c'].map((n) => ({ name: `entity-${n}`, entityType: 'thing', observations: [] })),
    },
  });
  expect(created.isError).toBeFalsy();
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await store?.close();
  ws?.cleanup();
});

const stored = () => readFileSync(ws.memoryFile, 'utf8');
const remove = (name: string) =>
  proxy.client.callTool({ name: 'delete_entities', arguments: { entityNames: [name] } });
const answer = async (token: string, id: string, action: 'approve' | 'deny', reason: string) => {
  const res = await api.request(`/v1/reviews/${id}/${action}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reason }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('a review through the MCP proxy', () => {
  it('refused naming the review; approved over HTTP, the same call passes exactly once', async () => {
    const refused = await remove('entity-a');
    expect(refused.isError).toBe(true);
    const facts = factsOf(refused);
    const id = facts.review_id as string;
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(facts.reasons).toEqual([expect.objectContaining({ code: 'review_required' })]);
    const text = textOf(refused);
    expect(text).toContain(`review ${id}`);
    expect(text).toContain(`tollgate review approve ${id}`);
    expect(text).toContain(`POST /v1/reviews/${id}/approve`);
    expect(text).toContain('call "delete_entities" again with the same arguments');
    expect(text).not.toContain('Minimal prediction');
    expect(stored()).toContain('entity-a');
    // Retrying while it waits names the same request and deletes nothing.
    expect(factsOf(await remove('entity-a')).review_id).toBe(id);

    // An agent token cannot answer; an operator token does, once.
    expect((await answer(BOT, id, 'approve', 'let me')).status).toBe(403);
    expect((await store.getReview(id))?.status).toBe('pending');
    const approved = await answer(OPS, id, 'approve', 'cleanup agreed');
    expect(approved.status).toBe(200);
    expect((await answer(OPS, id, 'approve', 'again')).status).toBe(409);

    const passed = await remove('entity-a');
    expect(passed.isError, textOf(passed)).toBeFalsy();
    expect(stored()).not.toContain('entity-a');
    expect((await store.getReview(id))?.consumed_at).toBeDefined();
    const rows = await store.listAudit({ kind: 'decision' });
    expect(rows.at(-1)).toMatchObject({ tool: 'delete_entities', outcome: 'dispatch', review_id: id });

    // The next identical call needs a new review.
    const next = await remove('entity-a');
    expect(next.isError).toBe(true);
    expect(factsOf(next).review_id).not.toBe(id);
  });

  it('a denial is final: the call stays refused, nothing is deleted', async () => {
    const id = factsOf(await remove('entity-b')).review_id as string;
    expect((await answer(OPS, id, 'deny', 'keep it')).status).toBe(200);
    const after = await remove('entity-b');
    expect(after.isError).toBe(true);
    expect(factsOf(after).review_id).toBe(id);
    expect(textOf(after)).toContain('denied');
    expect(textOf(after)).toContain('keep it');
    expect(stored()).toContain('entity-b');
  });
});
