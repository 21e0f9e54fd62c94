// tollgate.operator-route (issue 14): a request to the gate's own operator routes is gated like the
// operator CLI commands — operator only — whatever client, host spelling or path spelling carries it.
import { fileURLToPath } from 'node:url';
import { classify, loadPolicy } from '@tollgate/core';
import { describe, expect, it } from 'vitest';

const catalogue = fileURLToPath(new URL('../../../contracts/policies/shell.yaml', import.meta.url));
const policy = loadPolicy([catalogue]);
const run = (command: string) => classify(policy, { tool: 'shell', args: { command } });
const RULE = 'tollgate.operator-route';

describe('tollgate.operator-route', () => {
  it.each([
    `curl -s http://127.0.0.1:8787/v1/overrides -H 'content-type: application/json' -d '{"reason":"x","ttl_s":600,"session":"s1"}'`,
    'curl -d @o.json http://localhost:8787/v1//overrides',
    'curl -d @o.json "http://[::1]:8787/v1/./overrides"',
    'curl -d @o.json http://0x7f000001:8787/v1/%6fverrides',
    "curl -d @o.json 'http://127.1:8787/v1/{overrides}'",
    'B=http://127.0.0.1:8787; R=overrides; curl -d @o.json "$B/v1/$R"',
    'wget --post-data=x http://127.0.0.1:8787/v1/overrides',
    'http POST :8787/v1/overrides reason=x ttl_s:=600 session=s1',
    'xh :8787/v1/overrides reason=x',
    `node -e "fetch('http://127.0.0.1:8787/v1/overrides', {method: 'POST', body: '{}'})"`,
    `python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:8787/v1/overrides', b'{}')"`,
    "echo 'POST /v1/overrides HTTP/1.0' | nc 127.0.0.1 8787",
    'nc 127.0.0.1 8787 <<EOF\nPOST /v1/overrides HTTP/1.0\n\nEOF',
    'bash -c "curl -d x http://127.0.0.1:8787/v1/overrides"',
  ])('%s is operator only', (command) => {
    const result = run(command);
    expect(result.rules).toContain(RULE);
    expect(result.gating.some((c) => c.rule.id === RULE && c.rule.operator_only === true)).toBe(true);
  });

  it.each([
    'curl -s http://127.0.0.1:8787/v1/audit',
    'curl -s http://127.0.0.1:8787/v1/audit/$AUDIT_ID',
    'curl -s -d @call.json http://127.0.0.1:8787/v1/check',
    'curl -s -d @p.json http://127.0.0.1:8787/v1/predictions',
    'grep -rn /v1/overrides README.md',
  ])('%s is not', (command) => {
    expect(run(command).rules).not.toContain(RULE);
  });
});
