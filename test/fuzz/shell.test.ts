// Fuzzing the shell parser and classifier with commands from a grammar (shell-grammar.ts), not only
// random bytes: classification never throws, stays within its time and size bounds, names only known
// classes and the catalogue's rules, and the same argv spelled with other quoting and blanks gets the
// same classification — textually, and against a real project directory on disk.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGate, type Gate, loadPolicy } from '@tollgate/core';
import { nodeFileView } from '@tollgate/shell';
import { openStore } from '@tollgate/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { literalArgv, render, shellCommand, spelling } from './shell-grammar.js';
import { holds, nastyString } from './support.js';

const CLASSES = ['irreversible', 'unknown-dynamic', 'read-only', 'unmatched'];
/** Well above the parser's own 30 ms deadline: a classification slower than this is a hang. */
const TIME_BOUND_MS = 1000;

let dir: string;
let textual: Gate;
let onDisk: Gate;
let ruleIds: Set<string>;
const stores: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-fuzz-shell-'));
  const root = join(dir, 'project');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(root, '.git'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'export {}\n');
  writeFileSync(join(root, 'run.sh'), 'rm -rf /\n');
  writeFileSync(join(root, 'package.json'), '{"scripts":{"test":"rm -rf build"}}\n');
  const policy = loadPolicy(['builtin:shell', 'builtin:mcp']);
  ruleIds = new Set(policy.rules.map((r) => r.rule.id));
  const a = await openStore(join(dir, 'a.db'));
  const b = await openStore(join(dir, 'b.db'));
  stores.push(a, b);
  textual = createGate({ policy, store: a });
  onDisk = createGate({
    policy,
    store: b,
    where: {
      project: { root, home: join(dir, 'home'), gate: [join(root, '.tollgate')], temp: ['/tmp'] },
      files: nodeFileView(),
      path: '/usr/bin:/bin',
    },
  });
});
afterAll(async () => {
  for (const s of stores) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

function classified(gate: Gate, command: string) {
  const started = performance.now();
  const c = gate.classify({ tool: 'shell', args: { command } });
  return { c, ms: performance.now() - started };
}

describe('fuzz: shell classification', () => {
  it('classifies every command of the grammar within its bounds, to known classes and rules', async () => {
    let slowest = 0;
    await holds(
      'shell grammar',
      fc.property(shellCommand, fc.boolean(), (command, disk) => {
        const { c, ms } = classified(disk ? onDisk : textual, command);
        slowest = Math.max(slowest, ms);
        expect(ms).toBeLessThan(TIME_BOUND_MS);
        expect(CLASSES).toContain(c.class);
        for (const id of c.rules) expect(ruleIds.has(id) || id.startsWith('tollgate.'), id).toBe(true);
        expect(c.facts?.segments.length ?? 0).toBeLessThanOrEqual(500);
      }),
      300,
    );
    expect(slowest).toBeLessThan(TIME_BOUND_MS);
  });

  it('classifies random text, huge and deeply nested commands without throwing, in time', async () => {
    const hostile = fc.oneof(
      nastyString(200),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.integer({ min: 1, max: 400 }).map((n) => `${'$('.repeat(n)}rm -rf /${')'.repeat(n)}`),
      fc
        .integer({ min: 1, max: 300 })
        .map((n) => `${"bash -c '".repeat(1)}${'('.repeat(n)}ls${')'.repeat(n)}'`),
      fc.integer({ min: 100, max: 2000 }).map((n) => Array.from({ length: n }, () => 'ls').join(' | ')),
      fc.integer({ min: 1000, max: 200_000 }).map((n) => `echo ${'a'.repeat(n)}`),
      fc.integer({ min: 1, max: 200 }).map((n) => `cat <<EOF\n${'x\n'.repeat(n)}`),
    );
    await holds(
      'shell hostile text',
      fc.property(hostile, fc.boolean(), (command, disk) => {
        const { c, ms } = classified(disk ? onDisk : textual, command);
        expect(ms).toBeLessThan(TIME_BOUND_MS);
        expect(CLASSES).toContain(c.class);
      }),
      100,
    );
  });

  it('never lets a wrapper, list or nesting turn a gated command into one that passes', async () => {
    const GATED = new Set(['irreversible', 'unknown-dynamic']);
    const wrap = fc.constantFrom(
      (x: string) => `( ${x} )`,
      (x: string) => `{ ${x}; }`,
      (x: string) => `bash -c ${render(x, 'single')}`,
      (x: string) => `sh -c ${render(x, 'double')}`,
      (x: string) => `true && ${x}`,
      (x: string) => `${x} || true`,
      (x: string) => `${x} &`,
      (x: string) => `if true; then ${x}; fi`,
      (x: string) => `for i in 1; do ${x}; done`,
      (x: string) => `echo start; ${x}`,
      (x: string) => `f() { ${x}; }; f`,
      (x: string) => `${x} | cat`,
      // `time` is a keyword and takes any pipeline; a program wrapper (nohup X) takes only a simple
      // command (`nohup while …` runs a program named while), so it is not among these.
      (x: string) => `time ${x}`,
    );
    await holds(
      'shell wrapping keeps gated',
      fc.property(shellCommand, wrap, fc.boolean(), (command, around, disk) => {
        const gate = disk ? onDisk : textual;
        // A command string starting with `-` is read as options by `sh -c`: not the same command.
        if (/^\s*-/.test(command)) return;
        const inner = gate.classify({ tool: 'shell', args: { command: command.trimEnd() } });
        if (!GATED.has(inner.class)) return;
        const wrapped = around(command.trimEnd());
        const outer = gate.classify({ tool: 'shell', args: { command: wrapped } });
        expect(GATED.has(outer.class), `${command}\n  → ${inner.class}\n${wrapped}\n  → ${outer.class}`).toBe(
          true,
        );
      }),
      300,
    );
  });

  it('gives one argv the same classification however it is quoted and spaced', async () => {
    const pair = literalArgv.chain((argv) => fc.tuple(fc.constant(argv), spelling(argv), spelling(argv)));
    await holds(
      'shell spelling equivalence',
      fc.property(pair, fc.boolean(), ([argv, a, b], disk) => {
        const gate = disk ? onDisk : textual;
        const x = gate.classify({ tool: 'shell', args: { command: a } });
        const y = gate.classify({ tool: 'shell', args: { command: b } });
        const view = (c: typeof x) => ({ class: c.class, rules: [...c.rules].sort() });
        expect(view(y), `${JSON.stringify(argv)}\n  a: ${a}\n  b: ${b}`).toEqual(view(x));
      }),
      300,
    );
  });
});
