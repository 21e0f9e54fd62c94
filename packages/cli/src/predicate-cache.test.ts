// The on-disk cache of compiled predicates for user rule files: written on first load, reused
// after, keyed by content so an edited file never gets stale predicates.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedPredicates } from './predicate-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const policy = (env: string) => `rules:
  - id: deploy.prod
    description: deploys to ${env}
    tool: deploy
    class: irreversible
    severity: high
    match:
      args: { type: object, required: [env], properties: { env: { const: ${env} } } }
`;
const site = { file: 'p.yaml', rule: 'deploy.prod', key: 'args' as const, path: '/rules/0/match/args' };

describe('cachedPredicates', () => {
  it('compiles once, writes standalone code, and answers like ajv', () => {
    const first = cachedPredicates({ file: 'p.yaml', text: policy('prod') }, dir);
    expect(readdirSync(dir)).toHaveLength(1);
    const again = cachedPredicates({ file: 'p.yaml', text: policy('prod') }, dir);
    expect(readdirSync(dir)).toHaveLength(1);
    for (const source of [first, again]) {
      const predicate = source?.({}, site);
      expect(predicate?.({ env: 'prod' })).toBe(true);
      expect(predicate?.({ env: 'dev' })).toBe(false);
    }
  });

  it('keys by content: an edited file gets its own entry', () => {
    const edited = cachedPredicates({ file: 'p.yaml', text: policy('staging') }, dir);
    expect(readdirSync(dir)).toHaveLength(2);
    expect(edited?.({}, site)?.({ env: 'staging' })).toBe(true);
  });

  it('gives nothing for a file core will refuse, so core reports the problem', () => {
    expect(cachedPredicates({ file: 'bad.yaml', text: 'rules: [' }, dir)).toBeUndefined();
  });

  it("compiles a precondition's latest_output with $data, beside the match predicates", () => {
    const text = `rules:
  - id: memo.certify
    description: certify at the cap
    tool: certify
    class: precondition
    severity: high
    match:
      args: { type: object }
    requires:
      - observed: { tool: diag, args: { type: object, properties: { memo: { type: string } }, required: [memo] } }
        latest_output:
          properties: { current: { minimum: { $data: "1/max" } } }
`;
    const source = cachedPredicates({ file: 'q.yaml', text }, dir);
    const at = (key: string) => ({ file: 'q.yaml', rule: 'memo.certify', key, path: '/' });
    const output = source?.({}, { ...at('requires/0/latest_output'), data: true });
    expect(output?.({ current: 3, max: 3 })).toBe(true);
    expect(output?.({ current: 2, max: 3 })).toBe(false);
    expect(source?.({}, at('args'))?.({})).toBe(true);
    expect(source?.({}, at('requires/0/observed/args'))?.({ memo: 'm' })).toBe(true);
    expect(source?.({}, at('requires/0/observed/args'))?.({})).toBe(false);
  });
});
