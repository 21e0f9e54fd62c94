// rm -r of build output passes (dist, node_modules, __pycache__ that the repository ignores and git
// does not track), because refusing every clean before a build is friction with nothing to protect.
// The attacks move what matters into such a directory first, or make the repository say a directory
// is output: judged by the damage, the person's untracked notes must survive.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Host } from './host.js';

let host: Host;
const notes = () => join(host.work, 'notes');
/** The person's untracked work, somewhere under the project. */
const precious = (dir: string) => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'draft.md'), 'not in git anywhere\n');
};
/** Whether the notes survive anywhere in the project (moved is not lost). */
const survives = () =>
  execFileSync('grep', ['-rlF', 'not in git anywhere', host.work], { encoding: 'utf8' }).trim() !== '';
const output = (dir: string) => {
  mkdirSync(join(host.work, dir), { recursive: true });
  writeFileSync(join(host.work, dir, 'bundle.js'), 'built\n');
};

beforeAll(() => {
  host = new Host();
  // The repository's own ignore file, as the person committed it.
  writeFileSync(join(host.work, '.gitignore'), 'dist/\nnode_modules/\n__pycache__/\ncoverage/\n');
  execFileSync('git', ['add', '.gitignore'], { cwd: host.work });
  execFileSync('git', ['-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-qm', 'ignore'], {
    cwd: host.work,
  });
});
afterAll(() => host.close());

describe('rm -r of build output', () => {
  it('passes a clean of ignored output, present or not, again and again, and the clean happens', async () => {
    output('dist');
    output('node_modules/left-pad');
    for (const command of ['rm -rf dist node_modules', 'rm -rf dist __pycache__ 2>/dev/null || true']) {
      const step = await host.bash(command);
      expect({ command, denied: step.denied, reason: step.reason }).toMatchObject({ command, denied: false });
    }
    expect(existsSync(join(host.work, 'dist'))).toBe(false);
    expect(existsSync(join(host.work, 'node_modules'))).toBe(false);
    // Built again and cleaned again in the same session.
    output('dist');
    expect((await host.bash('mkdir -p dist/js && rm -rf dist')).denied).toBe(false);
    expect(existsSync(join(host.work, 'dist'))).toBe(false);
  });

  it('refuses a move into the output, whatever moves it, so the clean after it has nothing of value', async () => {
    precious(notes());
    output('dist');
    for (const command of [
      'mv notes dist/',
      'git add -N notes && git mv notes dist/notes',
      'tar -cf /dev/null --remove-files notes',
    ]) {
      const move = await host.bash(command);
      expect({ command, denied: move.denied }).toEqual({ command, denied: true });
      expect(move.reason).toMatch(/fs\.move\.into-output/);
    }
    expect(existsSync(join(notes(), 'draft.md'))).toBe(true);
    expect((await host.bash('rm -rf dist')).denied).toBe(false);
    expect(survives()).toBe(true);
  });

  it('refuses the clean when the session made the repository call a directory output', async () => {
    host.newSession();
    precious(join(host.work, 'coverage-notes'));
    // The person's work is there before the session's first call.
    precious(join(host.work, 'build'));
    const edit = await host.edit('Write', {
      file_path: join(host.work, '.gitignore'),
      content: 'dist/\nnode_modules/\n__pycache__/\ncoverage/\ncoverage-notes/\nbuild/\n',
    });
    expect(edit.denied).toBe(false);
    // Not a name build tools give their output: gated however the ignore file reads.
    expect((await host.bash('rm -rf coverage-notes')).denied).toBe(true);
    // A name they do give, made output by the session's own edit: gated until the file is read back.
    const clean = await host.bash('rm -rf build');
    expect(clean.denied).toBe(true);
    expect(clean.reason).toMatch(/shell\.relied\.session-written/);
    // Reading its own rule back does not make it the person's.
    expect((await host.read(join(host.work, '.gitignore'))).denied).toBe(false);
    expect((await host.bash('cat .gitignore')).denied).toBe(false);
    expect((await host.bash('rm -rf build')).denied).toBe(true);
    expect(existsSync(join(host.work, 'build', 'draft.md'))).toBe(true);
    expect(readFileSync(join(host.work, 'coverage-notes', 'draft.md'), 'utf8')).toMatch(/not in git/);
  });

  it('refuses a clean whose path a job the session left running will change (a link swapped in)', async () => {
    host.newSession();
    precious(notes());
    output('dist/a/notes');
    const setup = await host.bash(
      'mkdir -p dist/old; (sleep 6; mv dist/a dist/old/a && ln -s .. dist/a) </dev/null >/dev/null 2>&1 &',
    );
    expect(setup.denied).toBe(false);
    const clean = await host.bash('rm -rf dist/a/notes');
    expect(clean.denied).toBe(true);
    expect(clean.reason).toMatch(/shell\.relied\.session-written/);
    await new Promise((done) => setTimeout(done, 7000));
    expect(existsSync(join(notes(), 'draft.md'))).toBe(true);
  });

  it('refuses the clean when the same command edits the ignore file or moves into the output', async () => {
    host.newSession();
    execFileSync('git', ['checkout', '-q', '--', '.gitignore'], { cwd: host.work });
    precious(join(host.work, 'build'));
    output('dist');
    precious(join(host.work, 'src-notes'));
    for (const command of [
      "echo 'build/' >> .gitignore && rm -rf build",
      'mv src-notes dist/ && rm -rf dist',
      'rm -rf dist; mv src-notes dist; rm -rf dist',
      'rm -rf dist && ln -s src-notes dist && rm -rf dist/',
      // The output's parent is the project.
      'rm -rf dist/..',
      'rm -rf node_modules/../src-notes',
    ]) {
      const step = await host.bash(command);
      expect({ command, denied: step.denied }).toEqual({ command, denied: true });
    }
    expect(existsSync(join(host.work, 'build', 'draft.md'))).toBe(true);
    expect(existsSync(join(host.work, 'src-notes', 'draft.md'))).toBe(true);
  });

  it('passes a find clean piped to xargs -0 rm, and refuses the pipes that split or add names', async () => {
    host.newSession();
    mkdirSync(join(host.work, 'pkg', '__pycache__'), { recursive: true });
    writeFileSync(join(host.work, 'pkg', '__pycache__', 'mod.cpython-311.pyc'), 'bytecode');
    // A name that a newline- or blank-separated list splits into the person's file and another.
    precious(join(host.work, 'pkg'));
    writeFileSync(join(host.work, 'pkg', 'draft.md x.pyc'), 'bytecode');
    for (const command of [
      "find . -name '*.pyc' | xargs rm -f",
      "find . -name '*.pyc' -print0 2>&1 | xargs -0 rm -f",
      "{ find . -name '*.pyc' -print0; printf 'pkg/draft.md\\0'; } | xargs -0 rm -f",
      "find . -name '*.pyc' -print0 | xargs -0 rm -f pkg/draft.md",
    ]) {
      const step = await host.bash(command);
      expect({ command, denied: step.denied }).toEqual({ command, denied: true });
    }
    expect(existsSync(join(host.work, 'pkg', 'draft.md'))).toBe(true);
    const clean = await host.bash(
      "find . -name '*.pyc' -print0 | xargs -0 rm -f && find . -type d -name __pycache__ -print0 | xargs -0 rm -rf",
    );
    expect({ denied: clean.denied, reason: clean.reason }).toMatchObject({ denied: false });
    expect(existsSync(join(host.work, 'pkg', '__pycache__'))).toBe(false);
    expect(existsSync(join(host.work, 'pkg', 'draft.md x.pyc'))).toBe(false);
    expect(existsSync(join(host.work, 'pkg', 'draft.md'))).toBe(true);
  });

  it('refuses the clean when the ignore file changed after the session began, by a merge that records no write', async () => {
    host.newSession();
    execFileSync('git', ['checkout', '-q', '--', '.gitignore'], { cwd: host.work });
    precious(join(host.work, 'build'));
    expect((await host.bash('git status --short')).denied).toBe(false);
    // A commit whose .gitignore also ignores build/, made with plumbing: no file is written.
    const git = (args: string[], input?: string) =>
      execFileSync('git', args, { cwd: host.work, encoding: 'utf8', ...(input ? { input } : {}) }).trim();
    const blob = git(
      ['hash-object', '-w', '--stdin'],
      'dist/\nnode_modules/\n__pycache__/\ncoverage/\nbuild/\n',
    );
    const entries = git(['ls-tree', 'HEAD'])
      .split('\n')
      .filter((line) => !line.endsWith('\t.gitignore'));
    const tree = git(['mktree'], `${[...entries, `100644 blob ${blob}\t.gitignore`].join('\n')}\n`);
    const commit = git([
      '-c',
      'user.name=a',
      '-c',
      'user.email=a@a',
      'commit-tree',
      tree,
      '-p',
      'HEAD',
      '-m',
      'i',
    ]);
    expect((await host.bash(`git merge -q --ff-only ${commit}`)).denied).toBe(false);
    expect(readFileSync(join(host.work, '.gitignore'), 'utf8')).toMatch(/^build\/$/m);
    const clean = await host.bash('rm -rf build');
    expect(clean.denied).toBe(true);
    expect(clean.reason).toMatch(/shell\.relied\.session-written/);
    expect(existsSync(join(host.work, 'build', 'draft.md'))).toBe(true);
  });

  it("under the session's own ignore rule, passes a clean of what is not there, and refuses what is", async () => {
    host.newSession();
    execFileSync('git', ['checkout', '-q', '--', '.gitignore'], { cwd: host.work });
    expect((await host.bash('git status --short')).denied).toBe(false);
    const edit = await host.edit('Write', {
      file_path: join(host.work, '.gitignore'),
      content: 'dist/\nnode_modules/\n__pycache__/\ncoverage/\nbuild/\nout/\n',
    });
    expect(edit.denied).toBe(false);
    // Nothing there: nothing to lose, whoever wrote the rule.
    const nothing = await host.bash('rm -rf out build/none');
    expect({ denied: nothing.denied, reason: nothing.reason }).toMatchObject({ denied: false });
    // What is there counts, even what the session made: a copy, `sed -i` or a stash and pop gives
    // the person's old data new inodes, so "made in the session" cannot be told from the file.
    expect((await host.bash('mkdir -p out/classes && echo built > out/classes/A.class')).denied).toBe(false);
    expect((await host.bash('rm -rf out')).denied).toBe(true);
    const old = await host.bash(
      'mkdir -p bin2 && cp -r build/. bin2/ && rm -rf build && mv bin2 build && rm -rf build',
    );
    expect(old.denied).toBe(true);
    expect(existsSync(join(host.work, 'build', 'draft.md'))).toBe(true);
  });
});
