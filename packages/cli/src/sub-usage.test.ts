import { describe, expect, it } from 'vitest';
import { command as audit } from './commands/audit.js';
import { command as rules } from './commands/rules.js';
import { subUsage } from './sub-usage.js';

// `tollgate audit list --help` printed the whole audit usage (issue 14).
describe('subUsage', () => {
  it('cuts one subcommand: its usage lines, its description, its options and the exit codes', () => {
    const list = subUsage(audit.usage, 'audit', 'list') ?? '';
    expect(list.startsWith('Usage: tollgate audit list [--json] [--limit N]')).toBe(true);
    expect(list).toContain('rows oldest first');
    expect(list).toContain('--since TIME');
    expect(list).toMatch(/Exit codes: .*\n.*usage errors\./);
    expect(list).not.toContain('tollgate audit show');
    expect(list).not.toContain('tollgate audit anchor');
    const verify = subUsage(audit.usage, 'audit', 'verify') ?? '';
    expect(verify).toContain('walk the hash chain');
    expect(verify).toContain('rolled back or rewritten');
    const test = subUsage(rules.usage, 'rules', 'test') ?? '';
    expect(test.split('\n').filter((l) => l.includes('tollgate rules test'))).toHaveLength(3);
    expect(test).not.toContain('tollgate rules list');
  });

  it('is undefined for a name the usage does not show', () => {
    expect(subUsage(audit.usage, 'audit', 'frobnicate')).toBeUndefined();
  });
});
