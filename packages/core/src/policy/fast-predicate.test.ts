// The fast predicates against ajv: every predicate of the shipped catalogues (and of the example
// policies) gives the same answer as ajv's validator over the facts of many real commands and over
// arbitrary JSON, and a schema outside the subset gets no fast form.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseShell } from '@tollgate/shell';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseCall } from '../classify.js';
import { PREDICATE_AJV_OPTIONS, parsePolicyText } from './compile.js';
import { fastPredicate } from './fast-predicate.js';
import { readPolicySource } from './files.js';
import { predicateSites } from './sites.js';

const examples = fileURLToPath(new URL('../../../../contracts/policies/examples/', import.meta.url));
const files = [
  'builtin:files',
  'builtin:shell',
  'builtin:mcp',
  ...readdirSync(examples)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => `${examples}${f}`),
];
const ajv = new Ajv2020(PREDICATE_AJV_OPTIONS);

const sites = files.flatMap((file) => {
  const doc = parsePolicyText(readPolicySource(file));
  return doc.rules.flatMap((rule, i) =>
    predicateSites(rule, i)
      .filter((site) => site.data !== true)
      .map((site) => ({ name: `${file}#${rule.id}/${site.key}`, schema: site.schema })),
  );
});

const COMMANDS = [
  'git push --force origin main',
  'git -c core.hooksPath=/tmp/h status',
  'git stash list',
  'git branch -D topic',
  'rm -rf /tmp/x ./dist ~/y',
  'rm notes.txt',
  'find . -name "*.tmp" -delete',
  'docker rm -f web; docker compose down -v',
  'kubectl delete pod api -n prod',
  'psql -c "DROP TABLE t" && mysql -e "select 1"',
  "sqlite3 app.db 'delete from users'",
  'curl -X POST -d @body.json https://api.example.com/x',
  'curl -s http://127.0.0.1:8787/v1/overrides',
  'scp a.txt host:/srv/',
  'echo hi > out.txt; cat < in.txt >> log 2>&1',
  'LD_PRELOAD=/x.so ls; export GIT_SSH_COMMAND=evil',
  'sed -i s/a/b/ tollgate.config.yaml',
  'aws s3 rm s3://b --recursive; terraform destroy -auto-approve',
  'npm publish; gh pr merge 3 --admin',
  'systemctl stop nginx; crontab -r; shutdown -h now',
  'dd if=/dev/zero of=/dev/sda bs=1M',
  'chmod -R 777 /; chown -R x /etc',
  'bash -c "eval $X"; python3 -c "import os; os.remove(1)"',
  'nc host 80 < /etc/passwd',
  'ls -la | grep x | wc -l; head -n 3 README.md; jq . a.json',
  'git status; git log --oneline -3; git diff HEAD~1',
  'truncate -s 0 app.log; shred -u secret',
  'iptables -F; userdel bob',
];

const values: unknown[] = COMMANDS.flatMap((command) => {
  const call = { tool: 'shell', args: { command } };
  const facts = parseShell(command);
  return [normaliseCall(call), call.args, ...facts.segments];
});

describe('fastPredicate', () => {
  it('covers the catalogues: almost every shipped predicate has a fast form', () => {
    const fast = sites.filter((s) => fastPredicate(s.schema) !== undefined);
    expect(sites.length).toBeGreaterThan(100);
    expect(fast.length / sites.length).toBeGreaterThan(0.95);
  });

  // Tens of thousands of comparisons: each is a plain boolean check, and only a disagreement is
  // handed to expect (one expect per comparison took longer than the test timeout on a busy machine).
  it('answers as ajv does on the facts of real commands', { timeout: 60_000 }, () => {
    let compared = 0;
    let matched = 0;
    const disagreements: { name: string; value: unknown; fast: boolean; ajv: boolean }[] = [];
    for (const { name, schema } of sites) {
      const fast = fastPredicate(schema);
      if (!fast) continue;
      const slow = ajv.compile(schema as object);
      for (const value of values) {
        const expected = slow(value) === true;
        const got = fast(value);
        if (got !== expected) disagreements.push({ name, value, fast: got, ajv: expected });
        compared++;
        if (expected) matched++;
      }
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
    expect(compared).toBeGreaterThan(10_000);
    // Not vacuous: a good number of the comparisons are matches.
    expect(matched).toBeGreaterThan(200);
  });

  it('answers as ajv does on arbitrary JSON and on mutated segments', { timeout: 60_000 }, () => {
    const segment = fc.record(
      {
        program: fc.constantFrom('git', 'rm', 'docker', 'curl', 'psql', 'bash', 'sed', 'x'),
        args: fc.array(fc.constantFrom('-rf', '--force', 'push', 'rm', '/', 'tollgate.config.yaml', 'a')),
        flags: fc.array(fc.constantFrom('-f', '-r', '--force', '-i', '--hard', '-D')),
        positionals: fc.array(fc.string()),
        path: fc.array(fc.constantFrom('push', 'rm', 'delete', 'stash', 'list', 'prune')),
        subcommand: fc.constantFrom('push', 'reset', 'rm', 'status', 'branch'),
        assignments: fc.array(fc.constantFrom('LD_PRELOAD=x', 'A=1', 'BASH_ENV=/x')),
        redirects: fc.array(
          fc.record({
            op: fc.constantFrom('>', '>>', '<', '2>&1'),
            target: fc.string(),
            truncates: fc.boolean(),
          }),
        ),
        canonical: fc.array(fc.constantFrom('--force', '--recursive', '--hard', '--delete')),
      },
      { requiredKeys: [] },
    );
    const arbitrary = fc.oneof(
      fc.jsonValue(),
      segment,
      fc.record({ facts: fc.record({ dynamic: fc.array(fc.jsonValue()) }) }),
    );
    const pairs = sites
      .map(({ name, schema }) => ({ name, fast: fastPredicate(schema), slow: ajv.compile(schema as object) }))
      .filter((p) => p.fast !== undefined);
    fc.assert(
      fc.property(arbitrary, (value) => {
        const disagree = pairs.filter(({ fast, slow }) => fast?.(value) !== (slow(value) === true));
        expect(disagree.map((p) => p.name)).toEqual([]);
      }),
      { numRuns: 300, seed: 20261122 },
    );
  });

  it('has no fast form for keywords outside the subset, nor for object enums', () => {
    expect(fastPredicate({ type: 'object', additionalProperties: false })).toBeUndefined();
    expect(fastPredicate({ type: 'string', minLength: 2 })).toBeUndefined();
    expect(fastPredicate({ enum: [{ a: 1 }] })).toBeUndefined();
    expect(fastPredicate({ $ref: '#/x' })).toBeUndefined();
    expect(fastPredicate({ type: 'object', properties: { a: { if: { const: 1 } } } })).toBeUndefined();
  });

  it('keeps the subset semantics that are easy to get wrong', () => {
    const p = (schema: unknown) => fastPredicate(schema) as (v: unknown) => boolean;
    // properties and required apply to objects only; contains needs one match; prefixItems by position.
    expect(p({ required: ['a'], properties: { a: { const: 1 } } })('text')).toBe(true);
    expect(p({ type: 'object', required: ['a'] })({ a: undefined })).toBe(false);
    expect(p({ contains: { const: 'x' } })([])).toBe(false);
    expect(p({ type: 'array', prefixItems: [{ const: 'stash' }], minItems: 1 })(['stash', 'pop'])).toBe(true);
    expect(p({ type: 'array', prefixItems: [{ const: 'stash' }], items: false })(['stash', 'pop'])).toBe(
      false,
    );
    expect(p({ oneOf: [{ const: 1 }, { type: 'number' }] })(1)).toBe(false);
    // ajv compiles patterns with the u flag.
    expect(p({ type: 'string', pattern: '^.$' })('😀')).toBe(true);
    expect(p({ type: 'integer' })(1.5)).toBe(false);
  });
});
