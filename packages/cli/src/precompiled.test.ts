// The build's precompiled catalogues (build/precompile.mjs): every predicate of the shipped rules is
// written once, as its fast form where it has one (almost all) and as ajv's standalone code
// otherwise, and the fast forms the bundle carries answer as ajv does.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { normaliseCall, PREDICATE_AJV_OPTIONS, predicateSites } from '@tollgate/core';
import { parseShell } from '@tollgate/shell';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Precompiled } from './precompiled.js';

const contracts = fileURLToPath(new URL('../../../contracts', import.meta.url));
const build = new URL('../build/precompile.mjs', import.meta.url).href;

interface Shipped {
  name: string;
  doc: { rules: { id: string; enabled?: boolean }[] };
}

let dir: string;
let shipped: Shipped[];
let precompiled: Precompiled;

beforeAll(async () => {
  const { builtinPolicies, precompiledModule } = (await import(build as string)) as {
    builtinPolicies(dir: string): Shipped[];
    precompiledModule(policies: Shipped[]): string;
  };
  shipped = builtinPolicies(contracts);
  dir = mkdtempSync(join(tmpdir(), 'tollgate-precompiled-'));
  const file = join(dir, 'precompiled.mjs');
  writeFileSync(file, precompiledModule(shipped));
  ({ precompiled } = (await import(pathToFileURL(file).href)) as { precompiled: Precompiled });
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sites() {
  return shipped.flatMap(({ name, doc }) =>
    doc.rules.flatMap((rule, i) =>
      rule.enabled === false
        ? []
        : predicateSites(rule as never, i)
            .filter((site) => site.data !== true)
            .map((site) => ({ key: `${name}#${rule.id}/${site.key}`, schema: site.schema })),
    ),
  );
}

const COMMANDS = [
  'git push --force origin main',
  'git status --short && git log --oneline -3',
  'rm -rf build ~/notes /tmp/x',
  'echo hi > tollgate.config.yaml',
  'psql -c "DROP TABLE t"',
  'curl -d @body.json https://api.example.com/x',
  'kubectl delete ns prod; terraform destroy -auto-approve',
  'find . -name "*.tmp" -delete; git stash drop',
];

describe('precompiled catalogue predicates', () => {
  it('writes every shipped predicate once, almost all of them as fast forms', () => {
    const all = sites();
    expect(all.length).toBeGreaterThan(100);
    for (const { key } of all) {
      const places = [precompiled.fast[key], precompiled.predicates[key]].filter((p) => p !== undefined);
      expect(places, key).toHaveLength(1);
    }
    const fast = all.filter(({ key }) => precompiled.fast[key] !== undefined);
    expect(fast.length / all.length).toBeGreaterThan(0.95);
    expect(Object.keys(precompiled.policies).sort()).toEqual(shipped.map((p) => p.name).sort());
  });

  it('carries fast forms that answer as ajv does', () => {
    const ajv = new Ajv2020(PREDICATE_AJV_OPTIONS);
    const pairs = sites()
      .filter(({ key }) => precompiled.fast[key] !== undefined)
      .map(({ key, schema }) => ({
        key,
        fast: precompiled.fast[key] as (v: unknown) => boolean,
        slow: ajv.compile(schema as object),
      }));
    const facts: unknown[] = COMMANDS.flatMap((command) => {
      const call = { tool: 'shell', args: { command } };
      return [normaliseCall(call), call.args, ...parseShell(command).segments];
    });
    let matched = 0;
    for (const value of facts) {
      for (const { key, fast, slow } of pairs) {
        const expected = slow(value) === true;
        expect(fast(value), key).toBe(expected);
        if (expected) matched++;
      }
    }
    expect(matched).toBeGreaterThan(20);
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const disagree = pairs.filter(({ fast, slow }) => fast(value) !== (slow(value) === true));
        expect(disagree.map((p) => p.key)).toEqual([]);
      }),
      { numRuns: 200, seed: 20261127 },
    );
  });
});
