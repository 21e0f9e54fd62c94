// rm -r of build output passes the rm rule only where the repository shows it is that: a directory
// named as build tools name their output, ignored by the repository's own ignore files, holding no
// tracked file, reached without a symlink; and only when nothing else in the command may move
// something into it. Each case is a real repository in a temporary directory.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classify, loadPolicy } from '@tollgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOutputs } from './build-outputs.js';
import { nodeFileView, parseShell } from './index.js';

const catalogue = fileURLToPath(new URL('../../../contracts/policies/shell.yaml', import.meta.url));
const policy = loadPolicy([catalogue]);

let root: string;
let n = 0;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    env: { ...process.env, HOME: root, GIT_CONFIG_NOSYSTEM: '1' },
  }).toString();

/** A repository with `files` written (a path ending in `/` is a directory) and `tracked` committed. */
function repo(files: Record<string, string>, tracked: string[] = []): string {
  const dir = join(root, `r${n++}`);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries(files)) {
    if (path.endsWith('/')) mkdirSync(join(dir, path), { recursive: true });
    else {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  }
  if (tracked.length > 0) {
    git(dir, 'add', '-f', ...tracked);
    git(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
  }
  return dir;
}

const context = (cwd: string) => ({ cwd, home: root, files: nodeFileView(), env: {} });
const facts = (cwd: string, command: string) =>
  parseShell(command, { context: context(cwd), deadlineMs: 5000 });
const removal = (cwd: string, command: string) =>
  facts(cwd, command).segments.find((s) => s.program === 'rm' || s.program === 'rimraf');
const gated = (cwd: string, command: string) => {
  const project = { root: cwd, home: root, gate: [join(cwd, '.tollgate')], temp: ['/tmp'] };
  const result = classify(policy, { tool: 'shell', args: { command } }, undefined, {
    project,
    context: context(cwd),
  });
  return result.gating.length > 0;
};

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-outputs-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const IGNORES = 'node_modules/\ndist/\n/build\ncoverage\n__pycache__/\n*.egg-info/\ntarget\n';

describe('rm -r of build output', () => {
  it('passes ignored output directories, present or not, spelled any way', () => {
    const dir = repo(
      {
        '.gitignore': IGNORES,
        'dist/index.js': 'x',
        'node_modules/a/index.js': 'x',
        'pkg/__pycache__/m.pyc': 'x',
        'demo.egg-info/PKG-INFO': 'x',
        'src/index.ts': 'x',
        'package-lock.json': '{}',
      },
      ['.gitignore', 'src/index.ts', 'package-lock.json'],
    );
    for (const command of [
      'rm -rf dist',
      'rm -rf ./dist/ node_modules',
      'rm -r -f dist build coverage',
      'rm --recursive --force pkg/__pycache__ demo.egg-info',
      'rm -rf dist/*',
      'rm -rf node_modules/a',
      'rm -rf dist && npm run build',
      'npx rimraf dist',
      'rimraf --max-retries 3 node_modules/a',
      // Its redirections are judged by their own rules.
      'rm -rf coverage 2>/dev/null',
      // A file among them is removed as plain rm removes it.
      'rm -rf node_modules package-lock.json',
    ])
      expect({ command, gated: gated(dir, command) }).toEqual({ command, gated: false });
    // From a subdirectory, the same directories by a relative path.
    expect(gated(join(dir, 'src'), 'rm -rf ../dist')).toBe(false);
  });

  it('passes an ignored path that is not there, whatever its name, and a pattern rm is given that matched nothing', () => {
    const dir = repo(
      {
        '.gitignore': `${IGNORES}htmlcov/\n.coverage\n/bin/\n.venv/\n.pytest_cache/\n`,
        'bin/app': 'x',
        '.venv/pyvenv.cfg': 'x',
        'src/a.py': 'x',
      },
      ['.gitignore', 'src/a.py'],
    );
    for (const command of [
      'rm -rf htmlcov .coverage',
      'rm -rf bin/ .venv',
      'rm -rf build dist *.egg-info src/*.egg-info .pytest_cache',
    ])
      expect({ command, gated: gated(dir, command) }).toEqual({ command, gated: false });
    for (const command of [
      // Not ignored, though not there; a pattern rimraf expands itself; a pattern beside a write there.
      'rm -rf notes-old',
      'rimraf "*.egg-info"',
      'cp -r src x.egg-info && rm -rf *.egg-info',
      'mv src x.egg-info; rm -rf *.egg-info',
    ])
      expect({ command, gated: gated(dir, command) }).toEqual({ command, gated: true });
  });

  it('lists the ignore files it relied on', () => {
    const dir = repo({ '.gitignore': IGNORES, 'dist/x.js': 'x' }, ['.gitignore']);
    expect(facts(dir, 'rm -rf dist').relies_on).toEqual(
      expect.arrayContaining([join(dir, '.gitignore'), join(dir, '.git/info/exclude')]),
    );
    // Not where the removal is gated anyway.
    expect(facts(dir, 'rm -rf dist src').relies_on).toBeUndefined();
  });

  it('relies on nothing for a file it removes: whoever wrote it, it goes as plain rm takes it', () => {
    const dir = repo({ '.gitignore': IGNORES, 'scratch.txt': 'x', 'dev.log': 'x' }, ['.gitignore']);
    expect(facts(dir, 'rm -f scratch.txt').relies_on).toBeUndefined();
    expect(facts(dir, 'rm -f dev.log scratch.txt').relies_on).toBeUndefined();
    expect(facts(dir, 'rm -f dev.log').removes).toEqual([join(dir, 'dev.log')]);
  });

  it('reads nested ignore files, negations and info/exclude as git does', () => {
    const dir = repo(
      {
        'packages/a/.gitignore': 'dist/\n',
        'packages/a/dist/x.js': 'x',
        'packages/b/dist/x.js': 'x',
        '.gitignore': 'target/\n!keep/target/\n',
        'keep/target/x': 'x',
        'crate/target/x': 'x',
        '.git/info/exclude': 'out/\n',
        'out/x': 'x',
      },
      ['.gitignore', 'packages/a/.gitignore'],
    );
    expect(gated(dir, 'rm -rf packages/a/dist')).toBe(false);
    expect(gated(dir, 'rm -rf packages/b/dist')).toBe(true);
    expect(gated(dir, 'rm -rf crate/target')).toBe(false);
    expect(gated(dir, 'rm -rf keep/target')).toBe(true);
    expect(gated(dir, 'rm -rf out')).toBe(false);
  });

  it('gates what the repository does not show to be output', () => {
    const dir = repo(
      {
        '.gitignore': `${IGNORES}data/\n.env\nsecrets/\n`,
        'data/app.db': 'x',
        'secrets/key': 'x',
        'build/keep.txt': 'x',
        'src/dist/x.js': 'x',
        'dist/x.js': 'x',
        'lib/x.js': 'x',
      },
      ['.gitignore', 'build/keep.txt', 'lib/x.js'],
    );
    for (const command of [
      // Ignored, but not named as output: local data.
      'rm -rf data',
      'rm -rf secrets',
      // Named as output, but git tracks a file in it (added with -f).
      'rm -rf build',
      'rm -rf build/keep.txt/..',
      // Named as output and not ignored (the root rule is anchored: /build only).
      'rm -rf lib',
      // One path of several is not output.
      'rm -rf dist lib',
      'rm -rf dist src',
      // A file that is not there now may be a directory by the time rm runs.
      'rm -rf dist notes.txt',
      // The repository root, its .git, a path outside the repository.
      'rm -rf .',
      'rm -rf .git',
      'rm -rf ../dist',
      // What cannot be resolved.
      'rm -rf "$OUT"',
      'rm -rf di*t2',
      // A pattern rimraf expands itself: `dist/` and `dist/../lib`.
      "rimraf 'dist/{,../lib}'",
      "rimraf --glob 'dist/**/../../lib'",
    ])
      expect({ command, gated: gated(dir, command) }).toEqual({ command, gated: true });
  });

  it('gates a symlinked output and an output holding a repository of its own', () => {
    const dir = repo({ '.gitignore': IGNORES, 'src/a.ts': 'x', 'vendor/x': 'x' }, ['.gitignore', 'src/a.ts']);
    symlinkSync(join(dir, 'src'), join(dir, 'dist'));
    expect(gated(dir, 'rm -rf dist/')).toBe(true);
    // A file through it is removed as plain rm would remove it, and judged as that is.
    expect(gated(dir, 'rm -rf dist/a.ts')).toBe(gated(dir, 'rm dist/a.ts'));
    mkdirSync(join(dir, 'coverage'));
    git(join(dir, 'coverage'), 'init', '-q');
    expect(gated(dir, 'rm -rf coverage')).toBe(true);
  });

  it('takes only a regular file for a file: a directory it cannot list is not one', () => {
    const dir = repo({ '.gitignore': IGNORES, 'notes/draft.md': 'x', 'a.txt': 'x' }, ['.gitignore']);
    const real = nodeFileView();
    // A directory whose listing is refused (mode 000 for a user who is not root).
    const unlistable = {
      ...real,
      readdir: (path: string) => (path.endsWith('/notes') ? undefined : real.readdir(path)),
    };
    expect(buildOutputs(unlistable, [join(dir, 'notes')], true)).toBeUndefined();
    expect(buildOutputs(unlistable, [join(dir, 'a.txt')], true)).toEqual({
      consulted: [],
      paths: [],
      removed: [join(dir, 'a.txt')],
    });
  });

  it('gates where an ignore file has a second name, or the session may have put something below', () => {
    const dir = repo({ '.gitignore': IGNORES, 'dist/x': 'x' }, ['.gitignore']);
    expect(gated(dir, 'rm -rf dist')).toBe(false);
    expect(facts(dir, 'rm -rf dist').relies_on).toContain(`${join(dir, 'dist')}/`);
    linkSync(join(dir, '.gitignore'), join(dir, 'gi'));
    expect(gated(dir, 'rm -rf dist')).toBe(true);
  });

  it('gates outside a repository', () => {
    const dir = join(root, 'plain');
    mkdirSync(join(dir, 'dist'), { recursive: true });
    writeFileSync(join(dir, '.gitignore'), IGNORES);
    expect(gated(dir, 'rm -rf dist')).toBe(true);
  });

  it('gates what git has in HEAD though the index no longer has it (git rm --cached)', () => {
    const dir = repo({ '.gitignore': 'build/\n', 'build/release.sh': 'echo v1\n' }, [
      '.gitignore',
      'build/release.sh',
    ]);
    git(dir, 'rm', '-r', '-q', '--cached', 'build');
    expect(gated(dir, 'rm -rf build')).toBe(true);
    // In a repository without a commit yet, the index is all git has.
    const fresh = repo({ '.gitignore': 'node_modules/\n', 'node_modules/a/x.js': 'x' });
    expect(gated(fresh, 'rm -rf node_modules')).toBe(false);
  });

  it('gates names whose bytes are not what the gate read', () => {
    const dir = repo({ '.gitignore': IGNORES, 'dist/x': 'x', 'notes/draft.md': 'x' }, ['.gitignore']);
    // A zero-width space and fullwidth letters are folded to read `rm`; the shell removes the real bytes.
    expect(gated(dir, 'rm -rf dist\u200b')).toBe(true);
    expect(gated(dir, 'rm -rf \uff44\uff49\uff53\uff54')).toBe(true);
    expect(gated(dir, "rm -rf $'dist\\xe2\\x80\\x8b'")).toBe(true);
  });

  it('keeps the pass when what writes there runs only after the removal is done', () => {
    const dir = repo({ '.gitignore': IGNORES, 'dist/x': 'x', 'build/y': 'y', 'notes/a.md': 'x' }, [
      '.gitignore',
    ]);
    for (const command of [
      'rm -rf dist && mkdir -p dist && cp notes/a.md dist/',
      'rm -rf build dist; cp -r notes dist',
      'rm -rf dist && ln -s ../notes dist',
      '(rm -rf dist) && cp notes/a.md dist',
      // A copy elsewhere before it does not touch it.
      'cp notes/a.md b.md && rm -rf dist',
      'cp notes/a.md build/b.md && rm -rf dist',
    ])
      expect({ command, gated: gated(dir, command) }).toEqual({ command, gated: false });
    for (const command of [
      // Before it, beside it, or again after it in a loop or a job.
      'cp -r notes dist/ && rm -rf dist',
      'for i in 1 2; do rm -rf dist; ln -s ../notes dist; done',
      'while true; do rm -rf dist/; ln -s ../notes dist; done',
      'rm -rf dist/ & ln -s ../notes dist',
      'ln -s ../notes dist & rm -rf dist/',
      'f() { rm -rf dist/; }; ln -s ../notes dist; f',
      'rm -rf dist | ln -s ../notes dist',
    ])
      expect({ command, gated: gated(dir, command) }).toEqual({ command, gated: true });
  });

  it("a make target's clean of build output is not a write of the makefile it runs from", () => {
    const dir = repo(
      {
        '.gitignore': IGNORES,
        'build/app': 'x',
        Makefile:
          'all:\n\tmkdir -p build && cc -o build/app main.c\nclean:\n\trm -rf build dist\n\tfind . -name __pycache__ -type d -exec rm -rf {} +\n',
      },
      ['.gitignore', 'Makefile'],
    );
    for (const command of ['make clean', 'make clean && make all && mkdir -p dist && cp build/app dist/'])
      expect({ command, dynamic: facts(dir, command).dynamic }).toEqual({ command, dynamic: [] });
  });

  it('marks a move into build output, or into nothing, wherever it comes from', () => {
    const dir = repo({ '.gitignore': IGNORES, 'dist/x': 'x', 'notes/draft.md': 'x' }, ['.gitignore']);
    const into = (command: string) => facts(dir, command).segments.map((s) => s.moves_into);
    for (const command of [
      'mv notes dist/',
      'mv notes node_modules',
      'mv -t dist "$X"',
      'mv "$X" dist/',
      'git mv notes dist/notes',
      'rsync -a --remove-source-files notes/ dist/notes/',
      'rename.ul notes dist/notes notes',
    ])
      expect({ command, into: into(command) }).toEqual({ command, into: expect.arrayContaining(['output']) });
    for (const command of [
      'tar -cf /dev/null --remove-files notes',
      'mv notes /dev/null',
      'zip -rmq - notes > /dev/null',
      'zip -r --move - notes | cat > /dev/null',
    ])
      expect({ command, into: into(command) }).toEqual({
        command,
        into: expect.arrayContaining(['nothing']),
      });
    expect(into('tar -cf - --remove-files notes | tar -xf - -C dist')).toContain('nothing');
    // Under a name a find cleanup deletes by.
    for (const command of [
      'mv notes notes.o',
      'mv notes/draft.md notes/draft.pyc',
      'mv notes src/__pycache__',
      // In any case (`find -iname` finds it), and by GLib's gio as by mv.
      'mv notes notes.O',
      'mv notes __PyCache__',
      'gio move notes notes.o',
      'gio rename notes notes.o',
    ])
      expect({ command, into: into(command) }).toEqual({ command, into: ['output'] });
    // Within output, out of it, or anywhere else: nothing to mark.
    for (const command of [
      'mv dist/x dist/y',
      'mv dist/x notes/',
      'mv notes notes2',
      'tar -cf n.tar --remove-files notes',
      'zip -rm n.zip notes',
    ])
      expect({ command, into: into(command) }).toEqual({ command, into: [undefined] });
    // Without a context the paths stay relative: a move to a named path is a move, one to nothing is not.
    expect(parseShell('mv old.txt new.txt').segments[0]?.moves_into).toBeUndefined();
    expect(parseShell('tar -cf - --remove-files notes').segments[0]?.moves_into).toBe('nothing');
    expect(gated(dir, 'mv notes dist/')).toBe(true);
    expect(gated(dir, 'mv dist/x dist/y')).toBe(false);
  });

  it('gates when the same command writes the ignore file or moves something into the output', () => {
    const dir = repo({ '.gitignore': 'dist/\n', 'src/a.ts': 'x', 'dist/x': 'x' }, ['.gitignore', 'src/a.ts']);
    for (const command of [
      'echo "src/" >> .gitignore && rm -rf src',
      "printf 'build/\\n' > .gitignore; rm -rf build",
      'mv src dist/ && rm -rf dist',
      'mv src dist/src; rm -rf dist/src',
      'rm -rf dist; mv src dist',
      'for d in a b; do rm -rf dist; mv src dist; done',
      'mv "$SRC" dist && rm -rf dist',
      'rsync -a --remove-source-files src/ dist/ && rm -rf dist',
      'git checkout other && rm -rf dist',
      'git stash pop && rm -rf dist',
      // A link made where the removal then follows it.
      'rm -rf dist && ln -s src dist && rm -rf dist/',
      'ln -s ../src dist/link && rm -rf dist/link/',
      'rm -rf dist; cp -r src dist; rm -rf dist/a.ts/',
    ])
      expect({ command, gated: gated(dir, command) }).toEqual({ command, gated: true });
    // Empty directories and files made there change nothing of what goes.
    expect(gated(dir, 'rm -rf dist && mkdir -p dist/js && touch dist/.keep && rm -rf dist')).toBe(false);
  });

  it('is not told from a removal that cannot read the files', () => {
    const dir = repo({ '.gitignore': IGNORES, 'dist/x': 'x' }, ['.gitignore']);
    const segment = parseShell('rm -rf dist', { context: { cwd: dir, home: root, env: {} } }).segments[0];
    expect(segment?.build_outputs).toBeUndefined();
    expect(removal(dir, 'rm -rf dist')?.build_outputs).toBe(true);
  });
});

describe('a file removed that git cannot give back', () => {
  const lost = (cwd: string, command: string) =>
    facts(cwd, command).segments.flatMap((s) => s.loses_unversioned ?? []);

  it('is an untracked or ignored file there now, in a repository or in none', () => {
    const dir = repo(
      { '.gitignore': 'dist/\n*.log\n', 'notes.txt': 'n', 'app.log': 'l', 'src/a.ts': 'a', '.env': 'k' },
      ['.gitignore', 'src/a.ts'],
    );
    expect(lost(dir, 'rm notes.txt')).toEqual([join(dir, 'notes.txt')]);
    expect(lost(dir, 'unlink app.log')).toEqual([join(dir, 'app.log')]);
    expect(lost(dir, 'cd src && rm -f ../.env')).toEqual([join(dir, '.env')]);
    expect(lost(dir, 'rm -f *.txt src/a.ts')).toEqual([join(dir, 'notes.txt')]);
    const bare = join(root, `plain${n++}`);
    mkdirSync(bare);
    writeFileSync(join(bare, 'draft.md'), 'd');
    expect(lost(bare, 'rm draft.md')).toEqual([join(bare, 'draft.md')]);
  });

  it('is one whose contents a truncating redirection or a copy replaces whole', () => {
    const dir = repo({ '.gitignore': '.env\n', '.env': 'k', '.env.example': 'e', 'notes.txt': 'n' }, [
      '.gitignore',
      '.env.example',
    ]);
    for (const [command, names] of [
      ['cp .env.example .env', ['.env']],
      ['echo x > notes.txt', ['notes.txt']],
      [': > notes.txt', ['notes.txt']],
      ['mv .env.example notes.txt', ['notes.txt']],
      ['printf x | tee notes.txt', ['notes.txt']],
      ['dd if=/dev/zero of=notes.txt count=1', ['notes.txt']],
      ['install -m 600 .env.example .env', ['.env']],
      ['rsync -a .env.example .env', ['.env']],
      ['jq . .env.example | sponge notes.txt', ['notes.txt']],
      ['sort -o notes.txt .env.example', ['notes.txt']],
      ['convert in.png -resize 50% notes.txt', ['notes.txt']],
      // ln -f removes what is at each link's place first (bundled, abbreviated, into a directory).
      ['ln -sf /dev/null notes.txt', ['notes.txt']],
      ['ln -f .env.example .env', ['.env']],
      ['ln --for --sym .env.example notes.txt', ['notes.txt']],
      ['mkdir -p sub && ln -sf ../notes.txt .', ['notes.txt']],
      // A download or a fetched copy written over it: named, named after the URL or the source.
      ['curl -sSLo notes.txt https://example.com/x', ['notes.txt']],
      ['curl --output .env https://example.com/x', ['.env']],
      ['curl -O https://example.com/a/notes.txt', ['notes.txt']],
      ['wget -qO notes.txt https://example.com/x', ['notes.txt']],
      ['http -o .env https://example.com/x', ['.env']],
      ['scp host:/srv/notes.txt .', ['notes.txt']],
      ['scp -P 22 host:.env ./', ['.env']],
      ['scp host:/srv/x notes.txt', ['notes.txt']],
      ['git mv -f .env.example notes.txt', ['notes.txt']],
      ['git mv --forc .env.example .env', ['.env']],
    ] as const)
      expect({ command, lost: lost(dir, command) }).toEqual({
        command,
        lost: names.map((f) => join(dir, f)),
      });
    // Appending, keeping a backup or not clobbering, or a new file: nothing there is lost.
    for (const command of [
      'echo x >> notes.txt',
      'printf x | tee -a notes.txt',
      'printf x | sponge -a notes.txt',
      'rsync -a --ignore-existing .env.example .env',
      'sort notes.txt',
      'cp -n .env.example .env',
      'cp --backup=numbered .env.example .env',
      'mv -b .env.example notes.txt',
      'echo x > fresh.txt',
      'cp .env.example copy.txt',
      'echo x > .env.example',
      // Without -f ln refuses a place that is taken; with a backup the file is moved aside.
      'ln -s /dev/null notes.txt',
      'ln -sfb /dev/null notes.txt',
      'ln -sf --backup=numbered /dev/null notes.txt',
      'ln -sf notes.txt fresh-link',
      // Resuming or not clobbering keeps it; wget names a second copy notes.txt.1; git mv without -f refuses.
      'curl -C - -o notes.txt https://example.com/x',
      'curl --no-clobber -o notes.txt https://example.com/x',
      'wget -c -O notes.txt https://example.com/x',
      'wget https://example.com/notes.txt',
      'curl -o fresh.txt https://example.com/x',
      'scp notes.txt host:/srv/',
      'git mv .env.example notes.txt',
      'git mv -n -f .env.example notes.txt',
    ])
      expect({ command, lost: lost(dir, command) }).toEqual({ command, lost: [] });
  });

  it('is a tracked file holding changes the index does not, byte for byte; staged changes git keeps', () => {
    const dir = repo({ 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'src/c.ts': 'c\n' }, [
      'src/a.ts',
      'src/b.ts',
      'src/c.ts',
    ]);
    writeFileSync(join(dir, 'src', 'a.ts'), 'a\nthe person’s uncommitted line\n');
    writeFileSync(join(dir, 'src', 'b.ts'), 'b staged\n');
    git(dir, 'add', 'src/b.ts');
    // A filter git would run to compare is not run: the bytes are hashed as they are.
    git(dir, 'config', 'filter.x.clean', 'touch ran-filter');
    writeFileSync(join(dir, '.gitattributes'), '*.ts filter=x\n');
    expect(lost(dir, 'rm src/a.ts src/b.ts src/c.ts')).toEqual([join(dir, 'src', 'a.ts')]);
    expect(lost(dir, 'cp src/c.ts src/a.ts')).toEqual([join(dir, 'src', 'a.ts')]);
    expect(existsSync(join(dir, 'ran-filter'))).toBe(false);
  });

  it('is one a tree copy overwrites: the same name below where the copied tree lands', () => {
    const dir = repo(
      {
        '.gitignore': 'dist/\n',
        'src/a.ts': 'a',
        'src/b.ts': 'b',
        'notes.txt': 'n',
        'dist/app.js': 'x',
        'tpl/src/a.ts': 'tpl',
        'tpl/src/new.ts': 'tpl',
        'tpl/notes.txt': 'tpl',
        'tpl/dist/app.js': 'tpl',
      },
      ['.gitignore', 'src/a.ts', 'src/b.ts'],
    );
    writeFileSync(join(dir, 'src', 'a.ts'), 'a with the person’s change\n');
    const a = join(dir, 'src', 'a.ts');
    const notes = join(dir, 'notes.txt');
    for (const [command, names] of [
      ['cp -r tpl/src .', [a]],
      ['cp -a tpl/src/ .', [a]],
      ['cp --recursive tpl/. .', [notes, a]],
      ['cp -rT tpl/src src', [a]],
      ['rsync -a tpl/src .', [a]],
      ['rsync -a tpl/ ./', [notes, a]],
      ['rsync -a tpl/src/ src', [a]],
    ] as const)
      expect({ command, lost: lost(dir, command).sort() }).toEqual({ command, lost: [...names].sort() });
    // A new place, a tracked file as the index holds it, build output, or a copy that keeps what is there.
    for (const command of [
      'cp -r tpl/src fresh',
      'cp -r tpl/src/new.ts src/',
      'cp -rn tpl/src .',
      'rsync -a --ignore-existing tpl/ ./',
      'cp -r tpl/dist .',
    ])
      expect({ command, lost: lost(dir, command) }).toEqual({ command, lost: [] });
    writeFileSync(join(dir, 'src', 'a.ts'), 'a');
    expect(lost(dir, 'cp -r tpl/src .')).toEqual([]);
  });

  it('is not told of a tree copy over more files than the gate asks git about: a limit, gated', () => {
    const files: Record<string, string> = {};
    for (let k = 0; k < 40; k++) {
      files[`lib/f${k}.ts`] = 'x';
      files[`tpl/lib/f${k}.ts`] = 'y';
    }
    const dir = repo(files);
    expect(facts(dir, 'cp -r tpl/lib .').dynamic.map((d) => d.kind)).toContain('limit');
    expect(gated(dir, 'cp -r tpl/lib .')).toBe(true);
    expect(facts(dir, 'cp -r tpl/lib fresh').dynamic).toEqual([]);
  });

  it('is not a tracked file, build output, a directory or nothing', () => {
    const dir = repo(
      { '.gitignore': 'dist/\n', 'src/a.ts': 'a', 'dist/b.js': 'b', 'docs/': '', 'keep.txt': 'k' },
      ['.gitignore', 'src/a.ts', 'keep.txt'],
    );
    for (const command of [
      'rm src/a.ts',
      'git rm keep.txt',
      'rm dist/b.js',
      'rm -r docs',
      'rm -f missing.txt',
      'rm -f *.nothing',
    ])
      expect({ command, lost: lost(dir, command) }).toEqual({ command, lost: [] });
  });
});
