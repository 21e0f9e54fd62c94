// Resolution against a real directory: globs, ~, $HOME/$PWD/$TMPDIR, cd, symlinks and the program
// file, and what stays unresolved (and so gated) when the context cannot tell.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFileView, parseShell, type ResolveContext, resolvePath, type ShellSegment } from './index.js';

let root: string;
let ctx: ResolveContext;
const bin = () => join(root, 'bin');

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-resolve-')));
  mkdirSync(join(root, 'work/sub'), { recursive: true });
  mkdirSync(join(root, 'home'));
  mkdirSync(join(root, 'bin'));
  writeFileSync(join(root, 'work/-r'), '');
  writeFileSync(join(root, 'work/a.log'), '');
  writeFileSync(join(root, 'work/b.log'), '');
  writeFileSync(join(root, 'work/tollgate.config.yaml'), '');
  writeFileSync(join(root, 'home/.bashrc'), '');
  writeFileSync(join(root, 'bin/rmx'), '');
  symlinkSync(join(root, 'bin/rmx'), join(root, 'bin/zap'));
  symlinkSync(join(root, 'home/.bashrc'), join(root, 'work/notes'));
  symlinkSync(join(root, 'home'), join(root, 'work/h'));
  ctx = {
    cwd: join(root, 'work'),
    home: join(root, 'home'),
    path: `${bin()}:/usr/bin:/bin`,
    files: nodeFileView(),
  };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const parse = (command: string) => parseShell(command, { context: ctx });
const seg = (command: string, program: string): ShellSegment => {
  const found = parse(command).segments.find((s) => s.program === program);
  if (!found) throw new Error(`no ${program} in ${command}`);
  return found;
};
const kinds = (command: string, context?: ResolveContext) =>
  parseShell(command, context ? { context } : {}).dynamic.map((d) => d.kind);
const w = (...parts: string[]) => join(root, 'work', ...parts);

describe('pathname expansion with a context', () => {
  it('expands globs to the files that exist, sorted', () => {
    expect(seg('rm *.log', 'rm').args).toEqual(['a.log', 'b.log']);
    expect(seg('rm ./?.log', 'rm').args).toEqual(['./a.log', './b.log']);
    expect(seg('rm [ab].log', 'rm').args).toEqual(['a.log', 'b.log']);
    expect(seg('rm [!a].log', 'rm').args).toEqual(['b.log']);
    expect(seg('rm "*".log', 'rm').args).toEqual(['*.log']);
    expect(seg('rm *.none', 'rm').args).toEqual(['*.none']);
  });

  it('decides on the resolved words: a file named -r becomes an option', () => {
    const rm = seg('rm -? dir', 'rm');
    expect(rm.args).toEqual(['-r', 'dir']);
    expect(rm.flags).toContain('-r');
    expect(seg('rm * -f', 'rm').flags).toEqual(expect.arrayContaining(['-r', '-f']));
    expect(seg('rm -- *', 'rm').positionals).toContain('-r');
  });

  it('resolves a glob in program position to the file it runs', () => {
    const rm = parse('/bin/r? -rf dir').segments[0];
    expect(rm?.program).toBe('rm');
    expect(rm?.argv0).toBe('/bin/rm');
    expect(rm?.resolved_program).toBe(realpathSync('/bin/rm'));
  });

  it('reports a glob it cannot expand as dynamic where it could be the program or an option', () => {
    expect(kinds('rm -? dir')).toContain('unresolved_glob');
    expect(kinds('/bin/r? -rf dir')).toContain('unresolved_glob');
    expect(kinds('sudo /bin/r? dir')).toContain('unresolved_glob');
    expect(kinds('find * -print')).toContain('unresolved_glob');
    expect(kinds('rm ./*.log')).toEqual([]);
    expect(kinds('rm -- *.log')).toEqual([]);
    expect(kinds('rm logs/*.log')).toEqual([]);
    // With a context but after an unknown cd the directory is unknown: the glob cannot be read.
    expect(kinds('cd "$X" && rm -? dir', ctx)).toContain('unresolved_glob');
  });

  it('lets an unexpanded glob stand where no option of the program could do harm', () => {
    // Whatever `*` expands to (`-rf`, `--pre=sh`), echo, ls, cat, grep, wc … only read or print.
    for (const command of [
      'echo *',
      'ls -la *',
      'cat *.txt',
      'grep -n TODO *.ts',
      'wc -l *',
      'head -n 3 *.md',
    ]) {
      expect(kinds(command), command).toEqual([]);
    }
    // Not for programs whose options write or run (sort -o, rg --pre, file -C), nor for a file run by path.
    for (const command of ['sort *', 'rg foo *', 'file *', './ls *', 'rm *.log', 'sudo ls *']) {
      expect(kinds(command), command).toContain('unresolved_glob');
    }
  });

  it('leaves globs alone under glob options it does not model', () => {
    expect(seg('shopt -s dotglob; rm *.log', 'rm').args).toEqual(['*.log']);
    expect(kinds('shopt -s dotglob; rm -?', ctx)).toContain('unresolved_glob');
  });
});

describe('~, $HOME, $PWD, $TMPDIR', () => {
  it('expands ~ and $HOME from the context', () => {
    const rm = seg('rm -rf ~ ~/x $HOME/y ${HOME}/z "~"', 'rm');
    const home = join(root, 'home');
    expect(rm.args).toEqual(['-rf', home, `${home}/x`, `${home}/y`, `${home}/z`, '~']);
    expect(rm.unresolved).toBe(false);
  });

  it('never trusts a variable the command assigns, in any spelling', () => {
    for (const command of [
      'HOME=/; rm -rf ~',
      'export HOME=/; rm -rf $HOME',
      'read HOME; rm -rf ~',
      'declare HOME=/x; rm -rf ~/y',
      'unset HOME; rm -rf ~',
      'for HOME in /; do rm -rf ~; done',
      'echo ${HOME:=/}; rm -rf ~',
      'cd /; rm -rf $PWD',
      'local -n r=HOME; rm -rf ~',
    ]) {
      const rm = seg(command, 'rm');
      expect({ command, unresolved: rm.unresolved }).toEqual({ command, unresolved: true });
    }
  });

  it('reports an assignment that a loop may run before an earlier resolved use', () => {
    expect(kinds('for i in 1 2; do rm -rf ~/x; eval "HO""ME=/"; done', ctx)).toContain('reassigned_variable');
  });

  it('keeps a prefix assignment to its command', () => {
    expect(seg('HOME=/tmp/x rm -rf ~/y', 'rm').args).toEqual(['-rf', join(root, 'home/y')]);
    const inner = seg(`HOME=/ bash -c 'rm -rf ~'`, 'rm');
    expect(inner.unresolved).toBe(true);
  });

  it('resolves $TMPDIR in write targets unless the command assigns it', () => {
    const env = { ...ctx, env: { TMPDIR: '/var/tmp' } };
    expect(parseShell('rm -rf "$TMPDIR/build"', { context: env }).segments[0]?.writes).toEqual([
      '/var/tmp/build',
    ]);
    expect(parseShell('rm -rf $TMPDIR/x').segments[0]?.writes).toEqual(['/tmp/x']);
    const assigned = parseShell('export TMPDIR=$PWD; rm -rf $TMPDIR/dir', { context: env }).segments[1];
    expect(assigned?.writes_unresolved).toBe(true);
    expect(parseShell('rm -rf ${TMPDIR:=.}/x').segments[0]?.writes_unresolved).toBe(true);
    expect(parseShell('X=/; rm -rf $X').segments[1]?.writes_unresolved).toBe(true);
  });

  it('expands $TMPDIR from a context environment, and to nothing when that leaves it unset', () => {
    const set = { ...ctx, env: { TMPDIR: '/var/tmp/u' } };
    const rm = (command: string, context: ResolveContext) =>
      parseShell(command, { context }).segments.find((s) => s.program === 'rm');
    expect(rm('rm -rf "$TMPDIR/foo"', set)?.args).toEqual(['-rf', '/var/tmp/u/foo']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
    expect(rm('rm -rf ${TMPDIR}/foo', set)?.writes).toEqual(['/var/tmp/u/foo']);
    // Unset (most Linux environments): `"$TMPDIR/foo"` is `/foo`, not a temp directory.
    const unset = { ...ctx, env: {} };
    expect(rm('rm --force --recursive "$TMPDIR/foo"', unset)?.args).toEqual([
      '--force',
      '--recursive',
      '/foo',
    ]);
    expect(rm('rm -rf "$TMPDIR/foo"', unset)?.writes).toEqual(['/foo']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
    expect(rm('rm -rf ${TMPDIR:-/var/tmp}/foo', unset)?.writes).toEqual(['/var/tmp/foo']);
    // `-` without the colon gives the default only when unset, not when set empty: not told apart here.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
    expect(rm('rm -rf ${TMPDIR-/var/tmp}/foo', unset)?.writes_unresolved).toBe(true);
    // Assigned by the command: unknown, whatever the environment says.
    expect(rm('TMPDIR=/; rm -rf "$TMPDIR/etc"', set)?.unresolved).toBe(true);
  });
});

describe('cd', () => {
  it('resolves relative writes against every directory the command may be in', () => {
    expect(seg('cd sub; touch f', 'touch').writes).toEqual([w('f'), w('sub/f')]);
    // After `&&` the cd succeeded; once its and-or run ends, it may not have.
    expect(seg('cd sub && touch f', 'touch').writes).toEqual([w('sub/f')]);
    expect(seg('cd sub && true || touch f', 'touch').writes?.sort()).toEqual([w('f'), w('sub/f')].sort());
    expect(seg('cd sub && cd in && true; touch f', 'touch').writes).toEqual(
      expect.arrayContaining([w('f'), w('sub/f'), w('sub/in/f')]),
    );
    expect(seg('pushd /etc; cd ..; echo > x', 'echo').writes).toEqual(
      expect.arrayContaining([w('x'), '/etc/x', '/x']),
    );
    // A subshell's cd (and a substitution's) stays in it.
    expect(seg('(cd sub); echo hi > out', 'echo').writes).toEqual([w('out')]);
    expect(seg('x=$(cd sub; pwd); echo hi > out', 'echo').writes).toEqual([w('out')]);
    expect(seg('(cd sub && echo hi > out)', 'echo').writes).toEqual([w('sub/out')]);
  });

  it('makes later relative writes unresolved after a cd it cannot follow', () => {
    for (const command of [
      'cd $X; rm f',
      'cd -; rm f',
      'cd "$(mktemp -d)"; rm f',
      'popd; rm f',
      'CDPATH=/ ; cd etc; rm f',
      // Another user's home, OLDPWD and PWD: not directories under the current one.
      'cd ~root; rm f',
      'cd ~- && rm f',
      'pushd ~bin && rm f',
    ]) {
      const rm = seg(command, 'rm');
      expect({ command, unresolved: rm.writes_unresolved }).toEqual({ command, unresolved: true });
    }
    // Absolute targets stay known.
    expect(seg('cd $X; rm /tmp/f', 'rm').writes_unresolved).toBe(false);
  });

  it('does not follow cd in a loop that may run it before a write', () => {
    expect(seg('for d in a b; do echo x > out; cd /etc; done', 'echo').writes_unresolved).toBe(true);
    // A loop or function the shell itself may run from a heredoc (`. /dev/stdin`, eval) counts too.
    const sourced = ". /dev/stdin <<'SH'\nfor d in a b; do :; done\nSH\ncd sub; echo x > out";
    expect(seg(sourced, 'echo').writes_unresolved).toBe(true);
  });

  it("a heredoc's body is another program's text: its `for` and `read()` are no loop of the shell", () => {
    const edit =
      "cd sub && python3 - <<'PY'\ns = open('a.txt').read()\nfor x in [1]:\n    pass\nopen('a.txt', 'w').write(s)\nPY";
    const write = parseShell(edit, { context: ctx }).segments.find((s) => s.via.includes('python3 open()'));
    expect(write?.writes).toEqual([join(root, 'work/sub/a.txt')]);
    expect(write?.writes_unresolved).toBe(false);
  });
});

describe('symlinks and canonical paths', () => {
  it('resolves the real file a write lands in', () => {
    expect(seg('echo x >> notes', 'echo').writes).toEqual([join(root, 'home/.bashrc')]);
    expect(seg('echo x > h/.profile', 'echo').writes).toEqual([join(root, 'home/.profile')]);
    expect(seg('echo x > sub/../h/new/deep', 'echo').writes).toEqual([join(root, 'home/new/deep')]);
    // `link/..` is the parent of the link's target.
    expect(seg('echo x > h/../escape', 'echo').writes).toEqual([join(root, 'escape')]);
  });

  it('expands a redirection glob that matches one file', () => {
    expect(seg('echo x > tollgate.config.y?ml', 'echo').writes).toEqual([w('tollgate.config.yaml')]);
    expect(seg('echo x > *.log', 'echo').writes).toEqual([w('a.log'), w('b.log')]);
  });

  it('resolvePath answers for one word', () => {
    expect(resolvePath('notes', ctx)).toBe(join(root, 'home/.bashrc'));
    expect(resolvePath('~/x', ctx)).toBe(join(root, 'home/x'));
    expect(resolvePath('./a/../b', { cwd: '/srv/app' })).toBe('/srv/app/b');
  });
});

describe('a write through a dangling link lands where the kernel creates the file', () => {
  // open(O_CREAT) follows a final link whose target is missing and creates the target.
  beforeAll(() => {
    symlinkSync('../home/.gitconfig', w('cfg.ini'));
    symlinkSync(w('.claude/settings.local.json'), w('notes.json'));
    symlinkSync('.git/config', w('gc'));
    symlinkSync('.tollgate/config.yaml', w('gate.yaml'));
    symlinkSync('hop2', w('hop1'));
    symlinkSync('../home/.profile', w('hop2'));
    symlinkSync('../outside', w('out'));
    symlinkSync('h/../home2/.x', w('through'));
    symlinkSync('loopb', w('loopa'));
    symlinkSync('loopa', w('loopb'));
    symlinkSync('sub/next.txt', w('current.txt'));
  });

  it('judges a redirect, tee, cp and sed -i at the target', () => {
    const gitconfig = join(root, 'home/.gitconfig');
    expect(seg(`printf '[core]' > cfg.ini`, 'printf').writes).toEqual([gitconfig]);
    expect(seg('echo x | tee -a cfg.ini', 'tee').writes).toEqual([gitconfig]);
    expect(seg('cp a.log cfg.ini', 'cp').writes).toEqual([gitconfig]);
    expect(seg('sed -i s/a/b/ cfg.ini', 'sed').writes).toEqual([gitconfig]);
    expect(resolvePath('cfg.ini', ctx)).toBe(gitconfig);
  });

  it('follows absolute and relative targets to the host, VCS and gate files', () => {
    expect(seg('echo {} > notes.json', 'echo').writes).toEqual([w('.claude/settings.local.json')]);
    expect(seg('echo x > gc', 'echo').writes).toEqual([w('.git/config')]);
    expect(seg('echo x > gate.yaml', 'echo').writes).toEqual([w('.tollgate/config.yaml')]);
    // Relative to the link's own directory, wherever the command stands.
    expect(seg('echo x > ../work/cfg.ini', 'echo').writes).toEqual([join(root, 'home/.gitconfig')]);
    // `h/..` in a target is the parent of h's target, as the kernel walks it.
    expect(seg('echo x > through', 'echo').writes).toEqual([join(root, 'home2/.x')]);
  });

  it('follows a dangling link in a directory component, and a chain of them', () => {
    expect(seg('echo x > out/x', 'echo').writes).toEqual([join(root, 'outside/x')]);
    expect(seg('echo x >> hop1', 'echo').writes).toEqual([join(root, 'home/.profile')]);
  });

  it('leaves links in a loop unresolved, never their own name', () => {
    const echo = seg('echo x > loopa', 'echo');
    expect(echo.writes_unresolved).toBe(true);
    expect(echo.writes).not.toContain(w('loopa'));
    expect(resolvePath('loopa/x', ctx)).toBeUndefined();
  });

  it('a link that cannot be read, or a bound hit, leaves the path unresolved', () => {
    const view = nodeFileView();
    const unreadable: ResolveContext = {
      ...ctx,
      files: {
        readdir: (dir) => view.readdir(dir),
        realpath: (path) => view.realpath(path),
        readText: (path, max) => view.readText(path, max),
        readlink: (path) => (path === w('cfg.ini') ? null : view.readlink?.(path)),
      },
    };
    expect(resolvePath('cfg.ini', unreadable)).toBeUndefined();
    expect(resolvePath('a.log', unreadable)).toBe(w('a.log'));
    // A bound hit before the link is read: not told either.
    expect(resolvePath('cfg.ini', { ...ctx, files: nodeFileView({ maxOps: 1 }) })).toBeUndefined();
  });

  it('a dangling link to a project file stays that project file', () => {
    expect(seg('echo x > current.txt', 'echo').writes).toEqual([w('sub/next.txt')]);
    expect(seg('echo x > new.txt', 'echo').writes).toEqual([w('new.txt')]);
  });
});

describe('symbolic links the command itself makes', () => {
  const writes = (command: string, program: string) =>
    parse(command).segments.filter((s) => s.program === program);

  it('follows them in later paths as the kernel would', () => {
    // c/p is the work directory, so c/p/.. (and q3 made from it) is the work directory's parent.
    const rm = writes('mkdir -p c && ln -s .. c/p && ln -s c/p/.. q3 && rm -f q3/fh/.bashrc', 'rm')[0];
    expect(rm?.writes).toEqual([join(root, 'fh/.bashrc')]);
    expect(seg('mkdir -p q && ln -s .. q/p && echo x >> q/p/../fh/.bashrc', 'echo').writes).toEqual([
      join(root, 'fh/.bashrc'),
    ]);
    expect(seg('ln -s /etc e && echo x > e/hosts', 'echo').writes).toEqual(['/etc/hosts']);
    // A trailing slash goes through the link too.
    expect(seg('ln -s ../home hh && rm -rf hh/', 'rm').writes).toEqual([join(root, 'home')]);
  });

  it('cd -P through one lands where the kernel does; plain cd folds the name', () => {
    const rm = seg('mkdir -p d && ln -s .. d/p && cd -P d/p/.. && rm -f fh/.ssh/id_ed25519', 'rm');
    expect(rm.writes).toEqual([join(root, 'fh/.ssh/id_ed25519')]);
    expect(seg('mkdir -p d && ln -s .. d/p && cd d/p/.. && rm -f x', 'rm').writes).toEqual([w('d/x')]);
    expect(seg('ln -s .. up && cd up && rm -f x', 'rm').writes).toEqual([join(root, 'x')]);
  });

  it('a link whose target or place cannot be told makes paths through it unresolved', () => {
    for (const cmd of [
      'ln -s "$T" l && rm -rf l/x',
      'ln -sr ../x l && rm -rf l/y',
      'cp -rs /etc l && rm -f l/hosts',
      'ln -s a b && ln -s b a && rm a/x',
    ]) {
      const rm = writes(cmd, 'rm')[0];
      expect(rm?.writes_unresolved, cmd).toBe(true);
    }
    // Without a file view c/p may be a directory the link lands in: not told either.
    const bare = parseShell('mkdir -p c && ln -s .. c/p && rm -f c/p/../x').segments.find(
      (s) => s.program === 'rm',
    );
    expect(bare?.writes_unresolved).toBe(true);
  });

  it('a link alone, and a path that only names the link, are as before', () => {
    expect(seg('ln -s ../x y', 'ln').writes).toEqual([w('y'), join(root, 'x')]);
    expect(seg('ln -s ../x y && ls y', 'ln').writes_unresolved).toBe(false);
    expect(seg('ln -s ../x y && rm y', 'rm').writes).toEqual([w('y')]);
    expect(seg('ln -s sub s2 && echo x > sub/f', 'echo').writes).toEqual([w('sub/f')]);
  });
});

describe('resolved_program', () => {
  it('looks the program up on PATH and resolves symlinks', () => {
    expect(seg('zap -rf x', 'zap').resolved_program).toBe(join(root, 'bin/rmx'));
    expect(seg(`${bin()}/zap x`, 'zap').resolved_program).toBe(join(root, 'bin/rmx'));
    expect(seg('./h/.bashrc', '.bashrc').resolved_program).toBe(join(root, 'home/.bashrc'));
  });

  it('is absent for builtins, unknown programs and without a context', () => {
    expect(seg('echo hi', 'echo').resolved_program).toBeUndefined();
    expect(seg('no-such-program-x', 'no-such-program-x').resolved_program).toBeUndefined();
    expect(parseShell('zap x').segments[0]?.resolved_program).toBeUndefined();
  });

  it('keeps the interpreter for script runners', () => {
    expect(seg('bash ./script.sh', 'bash').resolved_program).toMatch(/bash$/);
  });
});

describe('the file view bounds', () => {
  it('reports a parse whose resolution hit a bound as dynamic', () => {
    const small: ResolveContext = { ...ctx, files: nodeFileView({ maxOps: 2 }) };
    const facts = parseShell('rm -rf a/b/c/d x/y/z *.log', { context: small });
    expect(facts.dynamic.map((d) => d.kind)).toContain('resolution_incomplete');
    // The bound counts per parse: the next parse starts afresh.
    expect(parseShell('echo hi', { context: small }).dynamic).toEqual([]);
  });

  it('caps the entries of a directory', () => {
    const view = nodeFileView({ maxEntries: 2 });
    expect(view.readdir(join(root, 'work'))).toBeUndefined();
    expect(view.exhausted).toBe(true);
    view.begin();
    expect(view.exhausted).toBe(false);
    expect(view.readText(join(root, 'work/a.log'), 10)).toBe('');
  });

  it('touches nothing without a context', () => {
    const facts = parseShell('cd sub && rm -rf *.log ~/x > out');
    const rm = facts.segments.find((s) => s.program === 'rm');
    expect(rm?.args).toEqual(['-rf', '*.log', '~/x']);
    expect(rm?.resolved_program).toBeUndefined();
    expect(rm?.writes).toEqual(expect.arrayContaining(['sub/*.log', 'sub/out']));
    expect(rm?.writes).not.toContain('out');
  });
});

describe("one decision's parse memo (ResolveContext.parsed)", () => {
  it('answers a command asked again in the same context without reading the files again', () => {
    const files = nodeFileView();
    const parsed = new Map();
    const context = { ...ctx, files, parsed };
    const first = parseShell('zap *.log && cat ~/.bashrc', { context });
    const reads = files.ops;
    expect(reads).toBeGreaterThan(0);
    expect(parseShell('zap *.log && cat ~/.bashrc', { context })).toBe(first);
    expect(files.ops).toBe(reads); // no parse began again (which would count from zero), nothing read
    expect(first.segments[0]?.args).toEqual(['a.log', 'b.log']);
  });

  it('parses anew where anything resolution reads differs: the command, cwd, home, PATH, environment', () => {
    const parsed = new Map();
    const base = { ...ctx, files: nodeFileView(), parsed };
    const first = parseShell('rm *.log', { context: base });
    expect(parseShell('rm ./*.log', { context: base })).not.toBe(first);
    const inSub = parseShell('rm *.log', { context: { ...base, cwd: w('sub') } });
    expect(inSub).not.toBe(first);
    expect(inSub.segments[0]?.args).toEqual(['*.log']);
    expect(parseShell('rm *.log', { context: { ...base, home: w('sub') } })).not.toBe(first);
    expect(parseShell('rm *.log', { context: { ...base, path: '/bin' } })).not.toBe(first);
    expect(parseShell('rm *.log', { context: { ...base, env: { TMPDIR: '/x' } } })).not.toBe(first);
    expect(parseShell('rm *.log', { context: { ...base } })).toBe(first);
  });
});
