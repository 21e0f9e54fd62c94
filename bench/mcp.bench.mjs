// The MCP proxy's overhead on a read-only call: the same read_text_file through `tollgate mcp` (a
// real process, gate and SQLite ledger included) and straight to server-filesystem, both over stdio
// with the SDK Client, interleaved call by call in one run so both see the same machine state.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { scaled } from './mode.mjs';
import { percentile } from './stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'packages/cli/bin/tollgate.js');
const DIST = join(root, 'packages/cli/dist/tollgate.js');
const FS_SERVER = join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const WARMUP = scaled(300, 20);
const N = scaled(3000, 100);

// The built binary when there is one (npm run bench builds it); else the sources through tsx.
const tollgate = existsSync(DIST)
  ? [BIN]
  : [
      '--conditions=tollgate-source',
      '--import',
      join(root, 'node_modules/tsx/dist/esm/index.mjs'),
      join(root, 'packages/cli/src/bin.ts'),
    ];

// stderr is kept (last 4 kB) so a failed start says why.
async function connect(args, cwd) {
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk.toString()).slice(-4096);
  });
  const client = new Client({ name: 'bench', version: '1' });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`${args.join(' ')}: ${error.message}\n${stderr}`);
  }
  return client;
}

const time = async (fn) => {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1000;
};

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-mcp-bench-'));
  const files = join(dir, 'files');
  const path = join(files, 'notes.txt');
  try {
    writeFileSync(
      join(dir, 'tollgate.config.yaml'),
      JSON.stringify({ policies: ['builtin:mcp'], store: 'gate.db' }),
    );
    await import('node:fs').then((fs) => fs.mkdirSync(files));
    writeFileSync(path, 'release 1.4 approved\n'.repeat(20));
    const direct = await connect([FS_SERVER, files], dir);
    const proxied = await connect(
      [...tollgate, 'mcp', '--session', 'bench', '--', process.execPath, FS_SERVER, files],
      dir,
    );
    const read = (client) => client.callTool({ name: 'read_text_file', arguments: { path } });
    try {
      for (let i = 0; i < WARMUP; i++) {
        await read(direct);
        await read(proxied);
      }
      const d = [];
      const p = [];
      for (let i = 0; i < N; i++) {
        // Alternate which goes first, so neither always runs on a warmer cache.
        if (i % 2 === 0) {
          d.push(await time(() => read(direct)));
          p.push(await time(() => read(proxied)));
        } else {
          p.push(await time(() => read(proxied)));
          d.push(await time(() => read(direct)));
        }
      }
      d.sort((a, b) => a - b);
      p.sort((a, b) => a - b);
      const d50 = percentile(d, 50);
      const p50 = percentile(p, 50);
      return {
        title: `MCP proxy overhead on a read-only call (read_text_file over stdio, ${N} interleaved calls each)`,
        rows: [
          { name: 'baseline: straight to server-filesystem, p50', value: d50, unit: 'µs' },
          {
            name: 'through tollgate mcp (recorded as evidence), p50',
            value: p50,
            unit: 'µs',
            baseline: d50,
            ratio: p50 / d50,
          },
          { name: 'proxy overhead, p50', value: (p50 - d50) / 1000, unit: 'ms', target: '≤ 1 ms' },
          { name: 'baseline p99', value: percentile(d, 99), unit: 'µs' },
          {
            name: 'through tollgate mcp, p99',
            value: percentile(p, 99),
            unit: 'µs',
            baseline: percentile(d, 99),
            ratio: percentile(p, 99) / percentile(d, 99),
          },
        ],
        notes: [
          existsSync(DIST)
            ? 'Proxy: the built binary.'
            : 'Proxy: sources through tsx (packages/cli is not built).',
        ],
      };
    } finally {
      await direct.close();
      await proxied.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
