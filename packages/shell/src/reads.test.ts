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
    // Options and redirects that write a file or run a program: never re-run as a probe.
    "git ls-remote --upload-pack='touch /tmp/pwn' origin",
    'git ls-remote -u ./evil origin',
    "git ls-remote --upload-pa='touch /tmp/pwn' origin",
    'git ls-remote --ex=./evil origin',
    'git diff --output=/home/u/.bashrc',
    "git grep -O'sh -c id' foo",
    'git -c core.pager=evil log',
    'GIT_EXTERNAL_DIFF=./x.sh git diff',
    'rg --pre ./evil.sh foo .',
    'echo x >> .git/hooks/pre-commit',
    'ls -la > listing.txt',
    'tail -f app.log',
    'echo 3f2a9c1',
    'ls; eval "$x"',
  ])('%s is not', (command) => {
    expect(cls(command)).not.toBe('read-only');
  });
});

describe('commands that do not parse', () => {
  it.each(['echo "unterminated; rm -rf ~', "git commit -m 'half"])('%s is gated', (command) => {
    const result = classify(policy, { tool: 'shell', args: { command } });
    expect(result.class).toBe('unknown-dynamic');
    expect(result.rules).toContain('shell.unparsable');
  });

  // bash ends a top-level heredoc at the end of input (with a warning) and runs the command on it.
  it('a heredoc left open at the end is read to the end, as bash reads it', () => {
    expect(classify(policy, { tool: 'shell', args: { command: 'cat <<EOF\nno end' } }).class).toBe(
      'read-only',
    );
    const result = classify(policy, { tool: 'shell', args: { command: "bash <<'EOF'\nrm -rf ./src" } });
    expect(result.rules).toContain('fs.rm.recursive-or-force');
    // Inside a substitution the end of input leaves the substitution open too: gated.
    const open = classify(policy, { tool: 'shell', args: { command: 'echo "$(cat <<EOF\nno end' } });
    expect(open.class).toBe('unknown-dynamic');
  });
});

describe('the gate itself', () => {
  it.each([
    'sed -i s/enforce/observe/ tollgate.config.yaml',
    'echo "mode: observe" >> tollgate.config.yaml',
    'rm -f .tollgate/tollgate.db',
    "sqlite3 .tollgate/tollgate.db 'delete from audit'",
    'rm .claude/settings.json',
    'cp /tmp/x .claude/settings.local.json',
  ])('%s is gated', (command) => {
    const result = classify(policy, { tool: 'shell', args: { command } });
    expect(result.class).toBe('irreversible');
    expect(result.rules).toContain('tollgate.self');
  });

  it.each(['cat tollgate.config.yaml', 'ls -la .tollgate', 'sed s/a/b/ tollgate.config.yaml'])(
    '%s is not',
    (command) => {
      expect(classify(policy, { tool: 'shell', args: { command } }).rules).not.toContain('tollgate.self');
    },
  );
});
