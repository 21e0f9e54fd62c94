// The README's TypeScript examples run exactly as written: each is cut out of README.md, executed
// with the workspace packages, and its printed lines must match the comments beside them.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, git, scratchRepo } from '../packages/cli/src/testing/harness.js';

const ROOT = join(import.meta.dirname, '..');

function example(name: string, lang = 'ts'): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const marker = `<!-- readme-example: ${name} -->`;
  const start = readme.indexOf(marker);
  if (start < 0) throw new Error(`README.md has no ${marker}`);
  const block = new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, 'm').exec(readme.slice(start));
  if (!block?.[1]) throw new Error(`no ${lang} block after ${marker}`);
  return block[1];
}

// The library example and the agent-framework examples (issue 12), each with the workspace packages.
describe('README', () => {
  it.each(['library', 'ai-sdk', 'openai-agents'])('%s example prints what its comments say', (name) => {
    const code = example(name);
    const expected = [...code.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const file = join(ROOT, 'test', 'fixtures', `.readme-${name}.ts`);
    writeFileSync(file, code);
    try {
      const out = execFileSync(process.execPath, ['--conditions=tollgate-source', '--import', 'tsx', file], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(out.trim().split('\n')).toEqual(expected);
    } finally {
      rmSync(file, { force: true });
    }
  });
});

// The shell and curl walk-throughs, run as written (issue 14): `tollgate` on PATH is the built
// binary, the CLI one runs in a scratch repository with a bare remote, the HTTP one against
// `tollgate serve` in open mode on a free port of 127.0.0.1 (the block's B= names it).
describe('README walk-throughs', () => {
  const repo = scratchRepo();
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill();
    rmSync(repo.root, { recursive: true, force: true });
  });
  const bin = join(repo.root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'tollgate'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {
    mode: 0o755,
  });
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('TOLLGATE_') && k !== 'CLAUDECODE') env[k] = v;
  env.PATH = `${bin}:${process.env.PATH}`;
  const bash = (script: string, session: string) =>
    spawnSync('bash', ['-c', script], {
      cwd: repo.work,
      env: { ...env, TOLLGATE_SESSION: session },
      encoding: 'utf8',
    });

  it('the CLI walk-through holds, predicts, pushes, probes and refuses the replay', () => {
    const out = bash(example('cli', 'sh'), 'readme-cli');
    expect(out.stderr).toContain('Tollgate (an automated gate you can satisfy) held this call');
    expect(out.stderr).toMatch(/recorded observation [0-9A-Z]{26}/);
    expect(out.stdout).toMatch(/recorded prediction [0-9A-Z]{26}/);
    expect(out.stderr).toMatch(/matched\s+git ls-remote origin contains/);
    expect(out.stdout).toMatch(/"result":\s*"matched"/);
    expect(out.stderr).toContain('[prediction_already_used]');
    expect(out.status).toBe(2);
    expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).toBe(git(repo.work, 'rev-parse', 'HEAD'));
  });

  it('the HTTP walk-through sets AUDIT_ID, reports the outcome and is refused the override in open mode', async () => {
    const server = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
      cwd: repo.work,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(server);
    const url = await new Promise<string>((resolve, reject) => {
      let seen = '';
      server.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const found = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(seen);
        if (found?.[1]) resolve(found[1]);
      });
      server.on('exit', (code) => reject(new Error(`tollgate serve exited ${code}: ${seen}`)));
    });
    const script = example('http', 'sh');
    expect(script).toContain('B=http://127.0.0.1:8787;');
    const out = bash(
      `${script.replace('http://127.0.0.1:8787', url)}\necho "AUDIT_ID=$AUDIT_ID"`,
      'readme-http',
    );
    const auditId = /AUDIT_ID=([0-9A-Z]{26})$/m.exec(out.stdout)?.[1];
    expect(auditId, out.stdout + out.stderr).toBeDefined();
    expect(out.stdout).toContain('"outcome":"rejected"');
    expect(out.stdout).toContain('"attested":false');
    expect(out.stdout).toContain('open mode');
    const view = (await (await fetch(`${url}/v1/audit/${auditId}`)).json()) as { claims?: unknown[] };
    expect(view).toMatchObject({ outcome: 'dispatch', result: { status: 'ok' } });
    expect(view.claims).toEqual([expect.objectContaining({ result: 'matched' })]);
    const overrides = (await (await fetch(`${url}/v1/audit?kind=override`)).json()) as { kind: string }[];
    expect(overrides.filter((r: { kind: string }) => r.kind === 'override')).toEqual([]);
  });
});

describe('README reason codes', () => {
  it('lists every code of the catalogue with its meaning', async () => {
    const { REASONS } = await import('@tollgate/core');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const [code, meaning] of Object.entries(REASONS))
      expect(readme).toContain(`| \`${code}\` | ${meaning} |`);
  });
});
