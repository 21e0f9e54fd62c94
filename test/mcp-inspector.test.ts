// The proxy driven by a client nobody here wrote: the MCP Inspector CLI v2, over stdio (it spawns
// `tollgate mcp` from a session-config file) and over Streamable HTTP. Exit code 5 is the
// Inspector's "tool returned isError"; 0 is a normal result.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  FS_SERVER,
  type HttpProxy,
  type Inspection,
  inspect,
  inspectorConfig,
  MEMORY_SERVER,
  startHttpProxy,
  type Workspace,
  workspace,
} from './fixtures/mcp-harness.js';

const text = (run: Inspection) =>
  ((run.result?.content as { text?: string }[] | undefined)?.[0]?.text ?? '') + run.stderr;
const readOf = (path: string) => ({ tool: 'read_text_file', args: { path } });

/** The walk every transport must pass: refuse, read, predict, decline, refuse a bad citation. */
function walkthrough(target: () => { ws: Workspace; args: string[] }) {
  const call = (tool: string, args: Record<string, unknown>, extra: string[] = []) => {
    const { ws, args: targetArgs } = target();
    return inspect(ws, [
      ...targetArgs,
      '--method',
      'tools/call',
      '--tool-name',
      tool,
      '--tool-args-json',
      JSON.stringify(args),
      ...extra,
    ]);
  };
  const files = () => target().ws.files;

  it('lists write_file with the tollgate argument and read_text_file without', async () => {
    const { ws, args } = target();
    const run = await inspect(ws, [...args, '--method', 'tools/list']);
    expect(run.code).toBe(0);
    const tools = run.result?.tools as { name: string; inputSchema: { properties?: object } }[];
    expect(tools.find((t) => t.name === 'write_file')?.inputSchema.properties).toHaveProperty('tollgate');
    expect(tools.find((t) => t.name === 'read_text_file')?.inputSchema.properties).not.toHaveProperty(
      'tollgate',
    );
  });

  it('refuses unguarded write_file and move_file (exit 5) and leaves the files untouched', async () => {
    const a = join(files(), 'a.txt');
    const write = await call('write_file', { path: a, content: 'pwned' });
    expect(write.code).toBe(5);
    expect(text(write)).toContain('[prediction_missing]');
    const move = await call('move_file', { source: a, destination: join(files(), 'b.txt') });
    expect(move.code).toBe(5);
    expect(readFileSync(a, 'utf8')).toBe('version one\n');
    expect(existsSync(join(files(), 'b.txt'))).toBe(false);
  });

  it('passes a read (exit 0), and a prediction citing it dispatches and is matched by the probe', async () => {
    const a = join(files(), 'a.txt');
    const read = await call('read_text_file', { path: a });
    expect(read.code).toBe(0);
    expect(text(read)).toContain('version one');
    const predicted = await call('write_file', {
      path: a,
      content: 'version two\n',
      tollgate: {
        prediction: {
          claims: [{ subject: readOf(a), op: 'contains', value: 'version two' }],
          evidence: [{ source: readOf(a), quote: 'version one' }],
        },
      },
    });
    expect(predicted.code, predicted.stderr).toBe(0);
    expect(readFileSync(a, 'utf8')).toBe('version two\n');
    const outcome = (await auditRows(target().ws)).at(-1);
    expect(outcome?.claims?.map((c) => c.result)).toEqual(['matched']);
  });

  it('records a decline (exit 0) and moves nothing', async () => {
    const a = join(files(), 'a.txt');
    const declined = await call('move_file', {
      source: a,
      destination: join(files(), 'b.txt'),
      tollgate: {
        decline: {
          irreducible: 'whether b.txt is expected to exist',
          would_change_my_mind: ['a listing that shows where b.txt belongs'],
          attempted_observations: [{ source: readOf(a) }],
        },
      },
    });
    expect(declined.code, declined.stderr).toBe(0);
    expect(text(declined)).toContain('recorded your decline');
    expect(existsSync(join(files(), 'b.txt'))).toBe(false);
  });

  it('refuses an invented citation with evidence_not_observed (exit 5)', async () => {
    const a = join(files(), 'a.txt');
    const invented = await call('write_file', {
      path: a,
      content: 'version three\n',
      tollgate: {
        prediction: {
          claims: [{ subject: readOf(a), op: 'contains', value: 'version three' }],
          evidence: [{ source: readOf(join(files(), 'never-read.txt')), quote: 'version two' }],
        },
      },
    });
    expect(invented.code).toBe(5);
    expect(text(invented)).toContain('[evidence_not_observed]');
    expect(readFileSync(a, 'utf8')).toBe('version two\n');
  });
}

describe('the Inspector over stdio', () => {
  let ws: Workspace;
  let config: string;
  beforeAll(() => {
    ws = workspace();
    writeFileSync(join(ws.files, 'a.txt'), 'version one\n');
    // Each Inspector run starts a new proxy process; --session pins them to one ledger.
    config = inspectorConfig(ws, ['--session', 'inspector', '--', process.execPath, FS_SERVER, ws.files]);
  });
  afterAll(() => ws?.cleanup());
  walkthrough(() => ({ ws, args: ['--config', config, '--server', 'tollgate'] }));

  it('refuses an unguarded delete_entities against server-memory and the graph stays', async () => {
    const mem = inspectorConfig(ws, ['--session', 'inspector', '--', process.execPath, MEMORY_SERVER]);
    const target = ['--config', mem, '--server', 'tollgate', '--method', 'tools/call'];
    const created = await inspect(ws, [
      ...target,
      '--tool-name',
      'create_entities',
      '--tool-args-json',
      JSON.stringify({ entities: [{ name: 'keep', entityType: 'thing', observations: ['x'] }] }),
    ]);
    expect(created.code, created.stderr).toBe(0);
    const before = readFileSync(ws.memoryFile, 'utf8');
    const run = await inspect(ws, [
      ...target,
      '--tool-name',
      'delete_entities',
      '--tool-args-json',
      '{"entityNames":["keep"]}',
    ]);
    expect(run.code).toBe(5);
    expect(text(run)).toContain('read_graph');
    expect(readFileSync(ws.memoryFile, 'utf8')).toBe(before);
  });
});

describe('the Inspector over Streamable HTTP', () => {
  let ws: Workspace;
  let proxy: HttpProxy;
  beforeAll(async () => {
    ws = workspace();
    writeFileSync(join(ws.files, 'a.txt'), 'version one\n');
    // Each Inspector run is a new MCP session, and a new connection starts an empty ledger: the
    // operator pins one session so the runs share it (the client's _meta id cannot join them).
    proxy = await startHttpProxy(ws, [
      '--session',
      'inspector-http',
      '--',
      process.execPath,
      FS_SERVER,
      ws.files,
    ]);
  });
  afterAll(async () => {
    await proxy?.stop();
    ws?.cleanup();
  });
  walkthrough(() => ({ ws, args: [proxy.url, '--tool-metadata', 'tollgate/session=inspector-http'] }));
});
