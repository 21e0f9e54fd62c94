// Fuzzing the policy compiler and the config reader: rule files built from the policy grammar with
// hostile values (predicates of random JSON Schema keywords, odd regexes, $refs and $data, templates),
// YAML text of any kind, and config files. Properties: compiling either yields a policy or throws a
// structured fault (policy_invalid / config_invalid) naming the problem — never another error, never a
// hang; and a policy that compiled decides every call it is given (a rule that cannot be evaluated
// fails closed, as gate_unavailable, and never throws).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compilePolicy, createGate, isFault, type Store } from '@tollgate/core';
import { openStore } from '@tollgate/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { readConfig } from '../../packages/cli/src/runtime.js';
import { tempDir } from '../support/gate.js';
import { anyText, holds, nastyJson } from './support.js';

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = tempDir('tollgate-fuzz-policy-');
  store = await openStore(join(dir, 'gate.db'));
});
afterAll(() => store.close());

const regex = fc.constantFrom(
  '^a',
  '(a+)+$',
  '[',
  '\\',
  '(?<x>a)\\k<x>',
  '\\p{L}',
  '.*',
  '^(?!x)',
  '[\\s\\S]{0,99999}',
);
const schema = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.record(
      {
        type: fc.oneof(fc.constantFrom('object', 'string', 'array', 'integer'), anyText),
        const: nastyJson,
        enum: fc.array(nastyJson, { maxLength: 3 }),
        pattern: regex,
        properties: fc.dictionary(
          fc.constantFrom('program', 'subcommand', 'command', 'env', 'sql', 'x'),
          tie('node'),
          {
            maxKeys: 2,
          },
        ),
        required: fc.array(anyText, { maxLength: 2 }),
        not: tie('node'),
        anyOf: fc.array(tie('node'), { maxLength: 2 }),
        $ref: fc.constantFrom('#', '#/nope', 'http://example.invalid/x', 'urn:tollgate:call:v1'),
        minimum: fc.oneof(fc.integer(), fc.record({ $data: fc.constantFrom('1/x', '/a/b', '0#') })),
        format: fc.constantFrom('date-time', 'uri', 'nope'),
      },
      { requiredKeys: [] },
    ),
    fc.boolean(),
    nastyJson,
  ),
})).node;
const read = fc.oneof(
  fc.constantFrom('git status', 'cat {{args.path}}', '{{args.', '{{ __proto__ }}', '{{args.constructor}}'),
  fc.record({ tool: anyText, args: fc.dictionary(anyText, fc.oneof(anyText, nastyJson), { maxKeys: 2 }) }),
  anyText,
);
const rule = fc.record(
  {
    id: fc.oneof(fc.stringMatching(/^[a-z][a-z0-9.-]{0,20}$/), anyText),
    description: anyText,
    tool: fc.oneof(
      fc.constantFrom('shell', 'deploy', '*', 'sql_*', 'mcp__*'),
      fc.array(anyText, { maxLength: 2 }),
    ),
    match: fc.oneof(
      fc.record({ args: schema }),
      fc.record({ segment: schema }),
      fc.record({ call: schema }),
      fc.record({ args: schema, segment: schema }, { requiredKeys: [] }),
    ),
    class: fc.oneof(fc.constantFrom('irreversible', 'read-only', 'precondition'), anyText),
    severity: fc.oneof(fc.constantFrom('low', 'high', 'critical'), anyText),
    evidence: fc.record(
      {
        max_age_s: fc.oneof(fc.integer(), fc.double()),
        reads: fc.array(read, { maxLength: 2 }),
        accept: fc.array(fc.oneof(read, fc.record({ tool: anyText, segment: schema })), { maxLength: 2 }),
        required: fc.array(read, { maxLength: 1 }),
        require_attested: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
    probe: read,
    requires: fc.array(
      fc.record(
        {
          observed: fc.record({ tool: anyText, args: schema }, { requiredKeys: ['tool'] }),
          latest_output: schema,
          why: anyText,
          max_age_s: fc.integer(),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 2 },
    ),
    enabled: fc.boolean(),
  },
  { requiredKeys: ['id', 'tool', 'class'] },
);
const policyDoc = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      schema: fc.constant('tollgate.policy/v1'),
      rules: fc.array(rule, { maxLength: 3 }),
    }),
  },
  { weight: 1, arbitrary: nastyJson },
);
const policyText = fc.oneof(
  { weight: 4, arbitrary: policyDoc.map((d) => stringify(d)) },
  { weight: 1, arbitrary: policyDoc.map((d) => JSON.stringify(d) ?? '') },
  { weight: 1, arbitrary: anyText },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'a: &x [*x]',
      '!!js/function "x"',
      'rules: !!binary AAAA',
      `${'- '.repeat(500)}x`,
      '{a: 1, a: 2}',
    ),
  },
);

const calls = [
  { tool: 'shell', args: { command: 'git push --force origin main' }, session: 'p' },
  { tool: 'deploy', args: { service: 'api', env: 'production', sql: 'DROP TABLE t' }, session: 'p' },
  { tool: 'sql_run', args: { sql: 'DROP TABLE users' }, session: 'p' },
  { tool: 'mcp__x__y', args: {}, session: 'p' },
];

describe('fuzz: policy and config files', () => {
  it('compiles a rule file or refuses it with policy_invalid; a compiled policy decides every call', async () => {
    let compiled = 0;
    await holds(
      'policy compile',
      fc.asyncProperty(policyText, async (text) => {
        const started = performance.now();
        let policy: ReturnType<typeof compilePolicy>;
        try {
          policy = compilePolicy([{ file: 'fuzz.yaml', text }]);
        } catch (error) {
          expect(
            isFault(error) && error.code === 'policy_invalid',
            String((error as Error)?.stack ?? error),
          ).toBe(true);
          expect(performance.now() - started).toBeLessThan(2000);
          return;
        }
        compiled++;
        const gate = createGate({ policy, store });
        for (const call of calls) {
          const verdict = await gate.check(call);
          expect(['pass', 'dispatch', 'declined', 'rejected']).toContain(verdict.outcome);
        }
        expect(performance.now() - started).toBeLessThan(5000);
      }),
      // Each compiled policy builds its own ajv predicates: slow per case, so fewer cases here.
      60,
    );
    expect(compiled).toBeGreaterThan(0);
  });

  it('reads a config file or refuses it with config_invalid', async () => {
    const config = fc.oneof(
      fc
        .record(
          {
            schema: fc.constant('tollgate.config/v1'),
            mode: fc.oneof(fc.constantFrom('enforce', 'observe'), anyText),
            policies: fc.array(anyText, { maxLength: 2 }),
            store: anyText,
            deny_ceiling: fc.oneof(fc.integer(), anyText),
            excerpt_bytes: fc.integer(),
            tokens: fc.array(fc.record({ token: anyText, agent: anyText, operator: fc.boolean() }), {
              maxLength: 2,
            }),
            limits: fc.record(
              {
                http_rate: fc.record(
                  { per_s: fc.oneof(fc.double(), fc.integer()), burst: fc.integer() },
                  { requiredKeys: [] },
                ),
                session_observations: fc.integer(),
                session_pending_tickets: fc.oneof(fc.integer(), anyText),
              },
              { requiredKeys: [] },
            ),
          },
          { requiredKeys: [] },
        )
        .map((d) => stringify(d)),
      nastyJson.map((d) => stringify(d)),
      anyText,
    );
    await holds(
      'config read',
      fc.asyncProperty(config, async (text) => {
        const path = join(dir, 'tollgate.config.yaml');
        writeFileSync(path, text);
        try {
          const read = readConfig(path);
          expect(typeof read).toBe('object');
        } catch (error) {
          expect(
            isFault(error) && error.code === 'config_invalid',
            String((error as Error)?.stack ?? error),
          ).toBe(true);
        }
      }),
      200,
    );
  });
});
