// The catalogue's read rules: what the gate may re-run after a dispatch as a post-state probe.
import { classify, loadPolicy } from '@tollgate/core';
import { describe, expect, it } from 'vitest';

const policy = loadPolicy(['builtin:shell']);
const cls = (command: string) => classify(policy, { tool: 'shell', args: { command } }).class;

describe('shell read rules', () => {
  it.each([
    'git ls-remote origin refs/heads/main',
    'git rev-parse HEAD',
    'git status --short',
    'git log --oneline -5',
    'git stash list',
    'git branch --list',
    'cat notes.txt | wc -l',
    'ls -la build',
  ])('%s is a read', (command) => {
    expect(cls(command)).toBe('read-only');
  });

  it.each([
    'cat a > b',
    'sort -o out in',
    'git branch -D old',
    'curl -s https://example.invalid',
    'git status && rm -rf build',
    'echo $(rm -rf /)',
    'ls; eval "$x"',
  ])('%s is not', (command) => {
    expect(cls(command)).not.toBe('read-only');
  });
});

describe('commands that do not parse', () => {
  it.each(['echo "unterminated; rm -rf ~', "git commit -m 'half", 'cat <<EOF\nno end'])(
    '%s is gated',
    (command) => {
      const result = classify(policy, { tool: 'shell', args: { command } });
      expect(result.class).toBe('unknown-dynamic');
      expect(result.rules).toContain('shell.unparsable');
    },
  );
});
