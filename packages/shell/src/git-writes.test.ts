// The directories git creates are writes of the command: a clone or worktree outside the project is
// a write outside it, inside it an ordinary one.
import { describe, expect, it } from 'vitest';
import { gitWrites, traceFiles } from './git-writes.js';
import { parseShell } from './index.js';

const texts = (args: string, base = '') => gitWrites(args.split(' '), base).map((w) => w.text);

describe('gitWrites', () => {
  it.each([
    ['clone https://example.com/a/b.git', ['b']],
    ['clone https://example.com/a/b/.git/', ['b']],
    ['clone git@example.com:team/tool.git', ['tool']],
    ['clone x ../other', ['../other']],
    ['clone --depth 1 -b main x vendor/x', ['vendor/x']],
    ['clone --separate-git-dir=../g x y', ['../g', 'y']],
    ['clone --separate-git-dir ../g x', ['../g', 'x']],
    ['worktree add ../wt', ['../wt']],
    ['worktree add -b topic ../wt main', ['../wt']],
    ['init ../newrepo', ['../newrepo']],
    ['init', []],
    ['worktree list', []],
    ['status', []],
  ])('git %s writes %j', (args, expected) => {
    expect(texts(args)).toEqual(expected);
  });

  it.each([
    // Every diff, log and show takes --output, in any prefix git accepts, with = or apart.
    ['log -1 --output=.claude/settings.json', ['.claude/settings.json']],
    ['log -1 --out=.git/config', ['.git/config']],
    ['diff --output /etc/passwd', ['/etc/passwd']],
    ['stash show --outp=notes.txt', ['notes.txt']],
    ['format-patch -o ../patches HEAD~2', ['../patches']],
    ['format-patch -o../p HEAD~2', ['../p']],
    ['format-patch --output-directory=../p HEAD~2', ['../p']],
    ['archive -o ../x.tar HEAD', ['../x.tar']],
    ['archive --output=../x.zip HEAD', ['../x.zip']],
    ['bundle create ../all.bundle --all', ['../all.bundle']],
    ['bugreport -o /root/', ['/root/']],
    ['diagnose --output-directory ../d', ['../d']],
    ['fast-export --export-marks=.git/hooks/pre-push HEAD', ['.git/hooks/pre-push']],
    ['checkout-index --prefix=../out/ -a', ['../out/']],
    ['index-pack -o ../i.idx x.pack', ['../i.idx']],
    ['pack-objects ../base', ['../base-pack']],
    ['mailinfo ../a/README.md /dev/null', ['../a/README.md', '/dev/null']],
    ['mailsplit -o../mail x.mbox', ['../mail']],
    ['credential-store --file=../c store', ['../c']],
    ['daemon --detach --pid-file=../pid', ['../pid']],
    ['maintenance register', ['~/.gitconfig']],
    ['maintenance run', []],
    // Options that only look alike, and `-o` where it means something else.
    ['log --output-indicator-new=+ -1', []],
    ['grep -o TODO', []],
    ['log --oneline', []],
    ['pack-objects --stdout', []],
  ])('git %s writes %j', (args, expected) => {
    expect(texts(args)).toEqual(expected);
  });

  it('git tracing writes the file its variables or trace2 targets name', () => {
    expect(traceFiles(['GIT_TRACE_SETUP=/root/.bashrc', 'GIT_TRACE=1', 'GIT_TRACE2=2'], [])).toEqual([
      { text: '/root/.bashrc', unresolved: false },
    ]);
    expect(traceFiles(['GIT_TRACE2_EVENT=af_unix:stream:/run/x.sock'], [])).toEqual([
      { text: '/run/x.sock', unresolved: false },
    ]);
    expect(traceFiles([], ['trace2.eventtarget=/home/u/.profile', 'core.pager=less'])).toEqual([
      { text: '/home/u/.profile', unresolved: false },
    ]);
    expect(traceFiles(['GIT_TRACE_PACKET=$(cat t)'], [])).toEqual([{ text: '$(cat t)', unresolved: true }]);
    expect(traceFiles(['GIT_DIR=/x', 'TRACE=/y'], [])).toEqual([]);
  });

  it('paths are relative to where -C moved git', () => {
    expect(texts('init', '../other')).toEqual(['../other/.git']);
    expect(texts('init')).toEqual([]);
    expect(texts('clone x y', '..')).toEqual(['../y']);
    expect(texts('clone x /abs/y', '..')).toEqual(['/abs/y']);
  });

  it('git apply writes the files its patch names, or the whole work tree', () => {
    const patch = [
      'diff --git a/src/app.ts b/src/app.ts',
      '--- a/src/app.ts',
      '+++ b/src/app.ts',
      '@@ -1 +1 @@',
      'diff --git a/.husky/pre-commit b/.husky/pre-commit',
      'new file mode 100755',
      '--- /dev/null',
      '+++ b/.husky/pre-commit',
      'diff --git a/old.sh b/run.sh',
      'rename from old.sh',
      'rename to run.sh',
    ].join('\n');
    const read = (path: string) => (path === 'fix.diff' ? patch : undefined);
    // A rename writes both names (the old one is removed).
    expect(gitWrites(['apply', 'fix.diff'], '', read).map((w) => w.text)).toEqual([
      'src/app.ts',
      '.husky/pre-commit',
      'old.sh',
      'run.sh',
    ]);
    expect(gitWrites(['apply', '--directory=pkg', 'fix.diff'], '', read).map((w) => w.text)).toContain(
      'pkg/.husky/pre-commit',
    );
    expect(gitWrites(['apply', 'missing.diff'], '', read).map((w) => w.text)).toEqual(['.']);
    expect(gitWrites(['apply'], '', read).map((w) => w.text)).toEqual(['.']);
    expect(gitWrites(['apply', '--check', 'fix.diff'], '', read)).toEqual([]);
    // A patch on stdin is read as one; an unknown one writes files that cannot be told.
    expect(gitWrites(['apply'], '', read, patch).map((w) => w.text)).toContain('.husky/pre-commit');
    expect(gitWrites(['apply'], '', read, undefined)[0]?.unknown).toBe(true);
    // A binary hunk names its file in the header; a reversed patch writes the old names; a quoted
    // name cannot be told.
    const binary =
      'diff --git a/.husky/pre-push b/.husky/pre-push\nnew file mode 100755\nGIT binary patch\nliteral 4\n';
    expect(gitWrites(['apply'], '', read, binary).map((w) => w.text)).toEqual(['.husky/pre-push']);
    const removal = '--- a/.githooks/pre-push\n+++ /dev/null\n';
    expect(gitWrites(['apply', '-R'], '', read, removal).map((w) => w.text)).toEqual(['.githooks/pre-push']);
    const quoted = 'diff --git "a/x\\165" "b/x\\165"\n+++ "b/.githooks/pre-p\\165sh"\n';
    expect(gitWrites(['apply'], '', read, quoted)[0]?.unknown).toBe(true);
    // Option prefixes are read as git reads them; --apply applies despite --stat; -p N.
    expect(gitWrites(['apply', '--dir=pkg', 'fix.diff'], '', read).map((w) => w.text)).toContain(
      'pkg/.husky/pre-commit',
    );
    expect(gitWrites(['apply', '--stat', '--apply', 'fix.diff'], '', read).length).toBeGreaterThan(0);
    expect(gitWrites(['apply', '-p', '0', 'fix.diff'], '', read).map((w) => w.text)).toContain(
      'b/.husky/pre-commit',
    );
    // An encoded mail body is not read.
    const encoded = (path: string) =>
      path === 'm.mbox' ? 'Content-Transfer-Encoding: base64\n\nZGlmZg==\n' : undefined;
    expect(gitWrites(['am', 'm.mbox'], '', encoded)[0]?.unknown).toBe(true);
    // git am reads the patches of a mailbox.
    expect(gitWrites(['am', 'fix.diff'], '', read).map((w) => w.text)).toContain('.husky/pre-commit');
    expect(gitWrites(['am', '--continue'], '', read)[0]?.unknown).toBeUndefined();
  });

  it('become the segment writes', () => {
    const segment = parseShell('git -C .. clone --quiet x other').segments[0];
    expect(segment?.writes).toEqual(['../other']);
    expect(parseShell('git worktree add "$D"').segments[0]?.writes_unresolved).toBe(true);
  });
});
