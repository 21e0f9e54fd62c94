import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFileView } from '@tollgate/shell';
import { describe, expect, it } from 'vitest';
import { classify } from './classify.js';
import { loadPolicy } from './policy/files.js';
import { detachedWrites, pendingPaths, writtenPaths } from './session-files.js';
import type { WriteScope } from './writes.js';
import { zoneOf, zoneOfPattern } from './zones.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-writes-')));
const root = join(base, 'project');
const home = join(base, 'home');
const state = join(home, '.local', 'state', 'tollgate');
mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
mkdirSync(join(root, 'src'), { recursive: true });
mkdirSync(join(home, '.claude'), { recursive: true });
mkdirSync(state, { recursive: true });
writeFileSync(join(root, 'tollgate.config.yaml'), 'mode: enforce\n');
writeFileSync(join(root, 'src', 'a.ts'), 'export {};\n');
writeFileSync(join(home, '.bashrc'), '# rc\n');
symlinkSync(join(home, '.bashrc'), join(root, 'notes'));
// Dangling links (nothing at their targets yet): open(O_CREAT) through one creates the target.
symlinkSync('../home/.gitconfig', join(root, 'cfg.ini'));
symlinkSync('.claude/settings.local.json', join(root, 'n.json'));
symlinkSync('.git/config', join(root, 'gc'));
symlinkSync('.tollgate/config.yaml', join(root, 'g.yaml'));
symlinkSync('src/next.ts', join(root, 'next.ts'));

const project = {
  root,
  home,
  gate: [join(root, 'tollgate.config.yaml'), join(root, '.tollgate'), state],
  temp: [join(base, 'scratch')],
};
const scope: WriteScope = { project, context: { cwd: root, home, files: nodeFileView() } };
const policy = loadPolicy(['builtin:files', 'builtin:shell', 'builtin:mcp']);
const shell = (command: string, cwd = root) =>
  classify(policy, { tool: 'shell', args: { command } }, undefined, {
    ...scope,
    context: { ...scope.context, cwd },
  });
const tool = (name: string, args: Record<string, unknown>) =>
  classify(policy, { tool: name, args }, undefined, scope);

describe('zones', () => {
  it.each([
    [join(root, 'src/a.ts'), 'project'],
    [join(root, 'tollgate.config.yaml'), 'gate'],
    [join(state, 'p-1/tollgate.db'), 'gate'],
    [join(root, '.claude/settings.json'), 'host'],
    [join(root, '.claude/settings.local.json'), 'host'],
    [join(home, '.claude/settings.json'), 'host'],
    [join(root, '.mcp.json'), 'host'],
    // Skills, subagents and commands carry hooks in their front matter, and run `!` commands.
    [join(root, '.claude/skills/deploy/SKILL.md'), 'host'],
    [join(root, '.claude/agents/reviewer.md'), 'host'],
    [join(root, '.claude/commands/ship.md'), 'host'],
    [join(root, '.claude/notes.md'), 'project'],
    [join(root, '.git/hooks/pre-commit'), 'vcs'],
    [join(root, '.git/config'), 'vcs'],
    [join(home, '.bashrc'), 'startup'],
    [join(root, '.envrc'), 'startup'],
    ['/etc/hosts', 'system'],
    ['/dev/null', 'sink'],
    [join(base, 'scratch/x.txt'), 'temp'],
    [join(base, 'elsewhere.txt'), 'outside'],
    ['relative/path', 'unresolved'],
  ])('%s is %s', (path, zone) => {
    expect(zoneOf(path, project)).toBe(zone);
  });

  it('a directory holding a gate file inside the project is the gate too, but not the root', () => {
    expect(zoneOf(join(root, '.tollgate'), project)).toBe('gate');
    expect(zoneOf(root, project)).toBe('project');
  });

  it("a file under the config's name is the gate's wherever it lies: a gate started there would load it", () => {
    const named = { ...project, gateNames: ['tollgate.config.yaml'] };
    expect(zoneOf(join(root, 'sub/tollgate.config.yaml'), named)).toBe('gate');
    expect(zoneOf(join(base, 'elsewhere/tollgate.config.yaml'), named)).toBe('gate');
    expect(zoneOf(join(root, 'sub/tollgate.config.yaml.bak'), named)).toBe('project');
    expect(zoneOf(join(root, 'sub/tollgate.config.yaml'), project)).toBe('project');
  });

  // macOS and Windows file systems ignore case (and Windows a name's trailing dots and spaces): these
  // names open the protected files themselves there.
  it.each([
    [join(root, 'Tollgate.Config.YAML'), 'gate'],
    [join(root, '.TOLLGATE/config.yaml'), 'gate'],
    [join(root, '.CLAUDE/settings.json'), 'host'],
    [join(root, '.claude/Settings.Local.json'), 'host'],
    [join(root, '.claude/HOOKS/x.sh'), 'host'],
    [join(root, '.GIT/config'), 'vcs'],
    [join(root, '.Git/Hooks/pre-commit'), 'vcs'],
    [join(root, '.git./config'), 'vcs'],
    [join(root, '.claude /settings.json'), 'host'],
    [join(root, '.ENVRC'), 'startup'],
    // A start-up file's zone needs a prediction; the host's settings in the home need an operator.
    [join(home, '.CLAUDE/settings.json'), 'host'],
    [join(home, '.Claude.json'), 'host'],
    // Compatibility forms fold too: the Kelvin sign is a K, a long s an s.
    [join(root, '.claude/hoo\u212As/x.sh'), 'host'],
    [join(root, '.claude/\u017Fettings.json'), 'host'],
    // The project itself under other case: outside it here, its host settings where case is ignored.
    [join(root.toUpperCase(), '.claude/settings.json'), 'host'],
  ])('%s is %s where case is ignored', (path, zone) => {
    expect(zoneOf(path, project)).toBe(zone);
  });

  it('folding never makes a path less protected', () => {
    expect(zoneOf(join(root, 'Src/A.ts'), project)).toBe('project');
    expect(zoneOf(join(base, 'SCRATCH/x.txt'), project)).toBe('outside');
    expect(zoneOf('/ETC/hosts', project)).toBe('outside');
  });
});

describe('every way to write a file is judged by the same path rules', () => {
  it.each([
    ['Write', { file_path: join(root, 'tollgate.config.yaml'), content: 'mode: observe\n' }],
    ['Edit', { file_path: join(root, 'tollgate.config.yaml'), old_string: 'enforce', new_string: 'observe' }],
    ['MultiEdit', { file_path: join(root, '.claude/settings.json'), edits: [] }],
    ['write_file', { path: join(root, '.claude/settings.local.json'), content: '{}' }],
    ['move_file', { source: join(root, 'tollgate.config.yaml'), destination: join(root, 'old.yaml') }],
  ])('%s of the gate or host files needs an operator', (name, args) => {
    const c = tool(name, args);
    expect(c.rules).toContain('gate.self');
    expect(c.gating.some((g) => g.rule.operator_only)).toBe(true);
  });

  it.each([
    ['Write', { file_path: '/etc/hosts', content: '1.2.3.4 x' }],
    ['Write', { file_path: join(root, 'notes'), content: 'x' }], // a symlink to ~/.bashrc
    ['Edit', { file_path: join(root, '.git/config'), old_string: 'a', new_string: 'b' }],
    ['NotebookEdit', { notebook_path: join(base, 'outside.ipynb'), new_source: 'x' }],
  ])('%s outside the ordinary project files is gated', (name, args) => {
    expect(tool(name, args).rules).toContain('fs.write.protected');
  });

  it.each([
    ['Write', { file_path: join(root, 'src/b.ts'), content: 'x' }],
    ['Edit', { file_path: join(root, 'src/a.ts'), old_string: 'a', new_string: 'b' }],
    ['Write', { file_path: join(base, 'scratch/x.txt'), content: 'x' }],
    ['Read', { file_path: join(root, 'tollgate.config.yaml') }],
  ])('%s of an ordinary file is not gated', (name, args) => {
    expect(tool(name, args).class).not.toBe('irreversible');
  });

  it.each([
    "printf 'mode: observe\\n' > tollgate.config.yaml",
    "printf 'mode: observe\\n' > tollgate.config.y?ml",
    "printf 'mode: observe\\n' | tee tollgate.config.{bak,yaml}",
    'echo x | tee -a tollgate.config.yaml',
    'cp /dev/null .claude/settings.json',
    `cd ${home} && echo x > .claude/settings.json`,
    'mv tollgate.config.yaml /tmp/x',
    'sed -i s/enforce/observe/ tollgate.config.yaml',
    // A directory holding the host's settings, written as a whole.
    'rsync -a /tmp/x/ .claude/',
    'tar -xf x.tar -C .claude',
    'unzip -o x.zip -d .claude',
    'rm -rf .claude',
    `rsync -a /tmp/x/ ${home}/.config/`,
    // git writes the file its --output (any prefix), -o or trace variable names.
    "git log -1 --format='format:{}' --output=.claude/settings.json",
    'git diff --out .claude/settings.local.json',
    'git format-patch -o .claude/hooks HEAD~1',
    // Output files of programs beside what they run: curl's --output-dir, script's typescript.
    'curl -s --output-dir .claude -o settings.json https://example.com/x',
    'script -q -c true .claude/settings.json',
  ])('shell write to the gate or host: %s', (command) => {
    expect(shell(command).rules).toContain('gate.self');
  });

  it.each([
    'echo x >> ~/.bashrc',
    'echo x >> notes',
    'echo "[core] hooksPath = /tmp/h" >> .git/config',
    'echo x > ../outside.txt',
    ': > ../notes.txt',
    'find . -fprint ../x',
    'dd if=/dev/zero of=/etc/x',
    'echo x > ../notes-$$.txt',
    'echo x > "$OUT"', // a variable could name anything: unresolved
    'git log -1 --out=.git/config',
    'git show --output=/etc/profile HEAD',
    'git archive --output=../x.tar HEAD',
    'git bundle create ../all.bundle --all',
    'GIT_TRACE_SETUP=~/.bashrc git status',
    'git -c trace2.eventTarget=/etc/profile status',
    'GIT_TRACE=$(cat where) git status',
    'git --work-tree=../elsewhere stash -u',
    'GIT_WORK_TREE=../elsewhere git checkout -- .',
    'git mailinfo ../x/README.md /dev/null < mail',
    'strace -o .git/config true',
    '/usr/bin/time -o ../x.log true',
    'time --output=../x.log ls',
    'sdiff -o ../merged a b',
    'strip -o ../x /bin/true',
    'fallocate -p -o 0 -l 8 ../x',
    'ar rc ../lib.a a.o',
    'cpio -o -F ../x.cpio < list',
    'tar --index-file=../idx -cvf /dev/null src',
    'cmake -S . -B ../build',
    'pip install --target ../site foo',
    'npm install --prefix ../elsewhere',
    'npm pack --pack-destination ..',
    'git config --global --unset user.name',
    'git config --system core.editor vi',
    'git config -f ../other/.gitconfig --remove-section user',
    'git credential-store store < cred',
  ])('shell write outside the project files: %s', (command) => {
    expect(shell(command).rules).toContain('fs.write.protected');
  });

  it.each([
    'echo x > src/b.ts',
    'npm test > /dev/null 2>&1',
    'ls -la 2>/dev/null',
    `echo hi > ${base}/scratch/log.txt`,
    `echo hi > ${base}/scratch/log-$$-$RANDOM.txt`, // numeric parameters cannot move a path
    'cat src/a.ts',
    'git status',
    'git format-patch -o patches HEAD~1',
    'git log -p --output=review.diff',
    'GIT_TRACE=1 git status',
    'curl -s -o out.json https://example.com/x',
    'script -q session.log',
    'time -p ls',
    'cmake -S . -B build',
    'npm pack',
    'git config user.name "A B"',
    'git config --global --get user.name',
  ])('ordinary work is not gated by the path rules: %s', (command) => {
    const rules = shell(command).rules;
    expect(rules).not.toContain('gate.self');
    expect(rules).not.toContain('fs.write.protected');
  });
});

describe('a write through a dangling link is judged at the file it creates', () => {
  it.each([
    ['Write', { file_path: join(root, 'n.json'), content: '{"disableAllHooks":true}' }],
    ['Write', { file_path: join(root, 'g.yaml'), content: 'mode: observe\n' }],
    ['write_file', { path: join(root, 'n.json'), content: '{}' }],
  ])('%s %j needs an operator', (name, args) => {
    expect(tool(name, args).rules).toContain('gate.self');
  });

  it.each([
    ['Write', { file_path: join(root, 'cfg.ini'), content: '[core]\n' }],
    ['Edit', { file_path: join(root, 'gc'), old_string: 'a', new_string: 'b' }],
    ['MultiEdit', { file_path: join(root, 'cfg.ini'), edits: [] }],
    ['NotebookEdit', { notebook_path: join(root, 'cfg.ini'), new_source: 'x' }],
  ])('%s %j is gated', (name, args) => {
    expect(tool(name, args).rules).toContain('fs.write.protected');
  });

  it('through a redirect and a writer alike', () => {
    expect(shell("printf '[core]' > cfg.ini").writes?.map((w) => w.zone)).toEqual(['startup']);
    expect(shell("printf '{}' | tee n.json").rules).toContain('gate.self');
    expect(shell('cp src/a.ts g.yaml').rules).toContain('gate.self');
    expect(shell('echo x >> gc').rules).toContain('fs.write.protected');
  });

  it('one to an ordinary project file is an ordinary write', () => {
    const c = tool('Write', { file_path: join(root, 'next.ts'), content: 'x' });
    expect(c.writes).toEqual([{ path: join(root, 'src/next.ts'), zone: 'project' }]);
    expect(c.class).not.toBe('irreversible');
  });
});

describe('a write into a directory that is there writes its entries, not the directory', () => {
  it('cp of a file into the home .claude directory writes that file only', () => {
    const c = shell(`cp src/a.ts ${home}/.claude/`);
    expect(c.writes?.map((w) => w.path)).toEqual([`${home}/.claude/a.ts`]);
  });

  it('a tree writer marks its writes as trees; a plain copy does not', () => {
    expect(shell('cp -r src /tmp/out').writes?.every((w) => w.tree)).toBe(true);
    expect(shell('tar -xf x.tar -C src').writes?.every((w) => w.tree)).toBe(true);
    expect(shell('cp src/a.ts src/b.ts').writes?.some((w) => w.tree)).toBe(false);
    expect(shell('mkdir -p build').writes?.some((w) => w.tree)).toBe(false);
    // git fills what it clones, checks out or adds as a worktree with files it does not name.
    expect(shell('git clone -q . cl').writes?.every((w) => w.tree)).toBe(true);
    expect(shell('git worktree add wt').writes?.every((w) => w.tree)).toBe(true);
    expect(shell('git format-patch -o out HEAD~1').writes?.some((w) => w.tree)).toBe(false);
  });
});

describe('a move into the temp directories is a delete in two steps', () => {
  const scratch = join(base, 'scratch');
  it.each([
    `mv src ${scratch}/x`,
    `mv -t ${scratch} src`,
    `mv --target-dir=${scratch} src`,
    `tar czf ${scratch}/n.tgz --remove-files src`,
    `zip -rm ${scratch}/a.zip src`,
    `rsync -a --remove-source-files src/ ${scratch}/x/`,
    `7z a ${scratch}/a.7z -sdel src`,
  ])('%s is gated', (command) => {
    expect(shell(command).rules).toContain('fs.move.into-temp');
  });

  it('a move_file tool call into the temp directory is gated too', () => {
    const c = tool('move_file', { source: join(root, 'src/a.ts'), destination: join(scratch, 'a.ts') });
    expect(c.rules).toContain('fs.move.into-temp');
    expect(
      tool('move_file', { source: join(scratch, 'a.ts'), destination: join(root, 'src/a.ts') }).rules,
    ).not.toContain('fs.move.into-temp');
  });

  it.each([
    `mv ${scratch}/out src/a.ts`, // the usual rewrite through a temp file
    `mv ${scratch}/a ${scratch}/b`,
    'mv src/a.ts src/b.ts',
    `cp -r src ${scratch}/copy`,
    `tar czf ${scratch}/n.tgz src`,
    `zip -r ${scratch}/a.zip src`,
  ])('%s passes', (command) => {
    expect(shell(command).rules).not.toContain('fs.move.into-temp');
  });

  it('without a scope, relative sources are the project', () => {
    const textual = (command: string) => classify(policy, { tool: 'shell', args: { command } });
    expect(textual('mv notes /tmp/x').rules).toContain('fs.move.into-temp');
    expect(textual('mv /tmp/x notes').rules).not.toContain('fs.move.into-temp');
  });
});

describe('what the session record keeps of a call’s writes', () => {
  it('keeps what leaves contents, not removals or empty directories', () => {
    const kept = (command: string) => writtenPaths(shell(command));
    expect(kept('cp src/a.ts src/b.ts')).toEqual([join(root, 'src/b.ts')]);
    expect(kept('echo x > src/c.ts; rm -rf src/old; mkdir -p src/new')).toEqual([join(root, 'src/c.ts')]);
    expect(kept('rm -f src/a.ts 2> src/err.log')).toEqual([join(root, 'src/err.log')]);
    expect(kept('touch src/a.ts; chmod +x src/a.ts')).toEqual([]);
    // A find cleanup of compiled files is a removal of build output.
    expect(kept("find src -name '*.pyc' -delete")).toEqual([]);
    expect(kept("find src -name '*.py' -delete")).toEqual([join(root, 'src')]);
  });
});

describe('writes that may land after the call: recorded as pending, which no later read clears', () => {
  const later = (command: string) => pendingPaths(shell(command));
  const s = join(root, 's.sh');
  it.each([
    '(sleep 3; cp src/a.ts s.sh) >/dev/null 2>&1 &',
    'cp src/a.ts s.sh &',
    '{ sleep 1; cp src/a.ts s.sh; } & disown',
    "sh -c 'sleep 1; mv src/a.ts s.sh' &",
    'nohup cp src/a.ts s.sh >/dev/null 2>&1 &',
    'setsid -f cp src/a.ts s.sh',
    'coproc cp src/a.ts s.sh',
    "echo 'cp src/a.ts s.sh' | at now + 1 minute",
    'true > >(sleep 1; cat src/a.ts > s.sh)',
  ])('%s', (command) => {
    // Also as a tree: the target may be a directory by the time the job writes.
    expect(later(command)).toEqual(expect.arrayContaining([s, `${s}/`]));
  });

  it('a write the call makes before it returns is not pending; a chmod or removal in a job changes no contents', () => {
    expect(later('cp src/a.ts s.sh && git status')).toEqual([]);
    expect(later('cp src/a.ts s.sh | cat')).toEqual([]);
    expect(later('(sleep 1; chmod +x s.sh; rm -f src/old.ts) &')).toEqual([]);
    // Both recorded: the ordinary write as a write, the job's as pending.
    const both = shell('echo x > src/b.ts; (sleep 1; cp src/a.ts s.sh) &');
    expect(writtenPaths(both)).toEqual(expect.arrayContaining([join(root, 'src/b.ts'), s]));
    expect(pendingPaths(both)).toEqual([s, `${s}/`]);
  });

  it('a call the host runs detached (run_in_background) makes every content write pending', () => {
    const detached = detachedWrites(shell('cp src/a.ts s.sh && echo x > src/b.ts; chmod +x s.sh'));
    expect(pendingPaths(detached)).toEqual(
      expect.arrayContaining([s, `${s}/`, join(root, 'src/b.ts'), `${join(root, 'src/b.ts')}/`]),
    );
    expect(pendingPaths(shell('cp src/a.ts s.sh'))).toEqual([]);
    const none = shell('git status');
    expect(detachedWrites(none)).toBe(none);
  });

  it('a copy into a directory in the background covers everything below it', () => {
    mkdirSync(join(root, 'scripts'), { recursive: true });
    mkdirSync(join(root, 'evil'), { recursive: true });
    expect(later('(sleep 2; cp -r evil/. scripts/) &')).toEqual(
      expect.arrayContaining([`${join(root, 'scripts')}/`]),
    );
  });
});

describe('without a scope (textual classification), a path is judged as written', () => {
  const textual = (command: string) => classify(policy, { tool: 'shell', args: { command } });
  it.each([
    ': > ../notes.txt',
    'cp build/app ../../deploy/',
    'echo x >> ~/.bashrc',
    'cd ~/.ssh && rm id_rsa',
    'rm .git/*',
    'rm .*',
    'touch .envrc',
    // Names a case-insensitive file system takes for the protected ones.
    'echo x > .GIT/config',
    'touch .EnvRC',
  ])('%s is a protected write', (command) => {
    expect(textual(command).rules).toContain('fs.write.protected');
  });

  it.each([
    ['echo x > TOLLGATE.config.yaml', 'gate.self'],
    ['echo x > .CLAUDE/settings.json', 'gate.self'],
    ['cp /dev/null .Tollgate/x', 'gate.self'],
  ])("%s writes the gate's or host's files", (command, rule) => {
    expect(textual(command).rules).toContain(rule);
  });

  it.each(['echo x > notes.txt', 'cp a.txt src/b.txt', 'rm build/*.o', 'cd src && echo x > out.txt'])(
    '%s stays in the project',
    (command) => {
      expect(textual(command).rules).not.toContain('fs.write.protected');
    },
  );
});

describe('tool names are words of the call, not table keys', () => {
  it('reads a tool named after an inherited property as an unknown tool', async () => {
    const { writesOfTool } = await import('./writes.js');
    for (const tool of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(writesOfTool(tool, { path: join(root, 'src', 'a.ts') }, scope), tool).toBeUndefined();
    }
    // A name that says it writes still has its path arguments judged.
    expect(
      writesOfTool('constructor_write_file', { path: join(root, 'tollgate.config.yaml') }, scope),
    ).toEqual([{ path: join(root, 'tollgate.config.yaml'), zone: 'gate' }]);
  });
});

describe('a pattern of written names (split, csplit) is judged by the names it could write', () => {
  const named = { ...project, gateNames: ['tollgate.config.yaml'] };
  it.each([
    [join(root, '.claude/settings.local.jso*'), 'host'],
    [join(root, 'tollgate.config.ya*'), 'gate'],
    [join(root, '.git/config*'), 'vcs'],
    [join(root, '.gi*'), 'vcs'],
    [join(home, 'x*'), 'outside'],
    [join(home, '.bash*'), 'startup'],
    [join(home, '.claude/settings*'), 'host'],
    [join(state, 'config-pins/k*'), 'gate'],
    [join(root, 'out/part-*'), 'project'],
    [join(root, 'part-*'), 'project'],
  ])('%s is %s', (path, zone) => {
    expect(zoneOfPattern(path, named)).toBe(zone);
  });
});

describe("a program no write model knows that names the gate's or host's files may write them", () => {
  it.each([
    `cpp -P a.c ${state}/config-pins/k.json`,
    `python3 -m json.tool pin.json ${state}/config-pins/k.json`,
    `mytool --out=${state}/x`,
    `mytool -o${join(state, 'config-pins')}/y`,
    'cpp -P a.c .claude/settings.local.json',
    'emacs --batch tollgate.config.yaml',
  ])('%s', (command) => {
    expect(shell(command).rules).toContain('gate.self');
  });

  it.each([
    `cat ${state}/config-pins/k.json`,
    `ls -la ${state}`,
    `export TOLLGATE_STATE_DIR=${state}`,
    `timeout 5 cat ${state}/config-pins/k.json`,
    'jq . .claude/settings.json',
    'cpp -P a.c out.c',
    'python3 -m json.tool package.json',
  ])('%s reads, or writes elsewhere', (command) => {
    expect(shell(command).rules).not.toContain('gate.self');
  });
});

describe("an output option of a program no write model knows, or the repository's internals it names", () => {
  it.each([
    'go build -o ~/.local/bin/tool ./cmd',
    `docker save -o ${home}/img.tar app`,
    'xmllint --output=.git/config a.xml',
    'mytool .git/hooks/pre-commit',
  ])('%s writes there', (command) => {
    expect(shell(command).class).toBe('irreversible');
  });

  it.each([
    'go build -o bin/tool ./cmd',
    'kubectl get pods -o json',
    'ps -o pid,cmd',
    'mytool --output "$OUT"',
  ])('%s writes nothing protected', (command) => {
    expect(shell(command).writes?.filter((w) => w.zone !== 'project') ?? []).toEqual([]);
  });
});

describe('an archive unpacked over the repository internals, gate, host or start-up files may write them', () => {
  it('writes each one that is there, whatever the archive holds', () => {
    mkdirSync(join(root, 'unpack', '.git'), { recursive: true });
    writeFileSync(join(root, 'unpack', '.envrc'), 'x\n');
    mkdirSync(join(root, 'plain'), { recursive: true });
    for (const command of [
      'tar -xf x.tar -C unpack',
      'unzip -oq x.zip -d unpack',
      'cd unpack && tar -xzf ../x.tgz',
    ]) {
      const c = shell(command);
      expect(
        c.writes?.map((w) => w.zone),
        command,
      ).toEqual(expect.arrayContaining(['vcs', 'startup']));
      expect(c.class, command).toBe('irreversible');
    }
    for (const command of ['tar -xf x.tar -C plain', 'unzip -oq x.zip -d plain', 'tar -cf x.tar unpack'])
      expect(shell(command).class, command).not.toBe('irreversible');
  });

  it('so does a tree copied into it, from a directory or a container, whatever the tree holds', () => {
    mkdirSync(join(root, 'staged'), { recursive: true });
    for (const command of [
      'cp -r staged/. unpack',
      'cp -aT staged unpack/',
      'rsync -a staged/ unpack',
      'cd unpack && cp -R ../staged/. .',
      'docker cp web:/srv/. unpack',
      'docker container cp web:/srv/. unpack/',
      'kubectl cp prod/api-0:/srv/. unpack',
    ]) {
      const c = shell(command);
      expect(
        c.writes?.map((w) => w.zone),
        command,
      ).toEqual(expect.arrayContaining(['vcs', 'startup']));
      expect(c.class, command).toBe('irreversible');
    }
    // A tree of the host's name: the host's files.
    expect(shell('rsync -a staged/.claude unpack').writes?.map((w) => w.zone)).toContain('host');
    // A tree copied in under its own name, into a plain directory, out of the project, or out to a container.
    for (const command of [
      'cp -r staged unpack',
      'cp -r staged/. plain',
      'rsync -a staged unpack/',
      'rsync -a unpack/ plain/',
      'docker cp web:/srv/dist unpack',
      'docker cp unpack/. web:/srv',
    ])
      expect(shell(command).class, command).not.toBe('irreversible');
  });
});

describe("a stash puts the host's changed or untracked files away", () => {
  it('writes those it would take back to HEAD or remove, and nothing else', () => {
    const repo = join(base, 'stashing');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: repo,
        env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' },
      });
    mkdirSync(join(repo, '.claude'), { recursive: true });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(repo, '.claude', 'settings.json'), '{}\n');
    writeFileSync(join(repo, 'README.md'), 'r\n');
    git('add', '.');
    git('commit', '-qm', 'init');
    const here = (command: string) =>
      classify(policy, { tool: 'shell', args: { command } }, undefined, {
        project: { root: repo, home, gate: [join(repo, 'tollgate.config.yaml')], temp: [] },
        context: { cwd: repo, home, files: nodeFileView() },
      });
    const settings = join(repo, '.claude', 'settings.json');
    const local = join(repo, '.claude', 'settings.local.json');
    // Clean and committed: a stash leaves it; the project's own changes are the stash's business.
    writeFileSync(join(repo, 'README.md'), 'r\nmore\n');
    expect(here('git stash').class).not.toBe('irreversible');
    // An untracked host file: only a stash that takes untracked files removes it.
    writeFileSync(local, '{"hooks": {}}\n');
    expect(here('git stash').class).not.toBe('irreversible');
    for (const command of [
      'git stash -u',
      'git stash push --all',
      'git stash save --include-untracked wip',
    ]) {
      const c = here(command);
      expect(c.class, command).toBe('irreversible');
      expect(
        c.writes?.map((w) => w.path),
        command,
      ).toContain(local);
    }
    // A change to a committed one, in the work tree or only staged: any stash takes it back to HEAD's.
    writeFileSync(settings, '{"hooks": {"PreToolUse": []}}\n');
    expect(here('git stash').writes?.map((w) => w.path)).toContain(settings);
    git('add', '.claude/settings.json');
    expect(here('git stash push -m wip').writes?.map((w) => w.path)).toContain(settings);
    expect(here('git stash list').class).not.toBe('irreversible');
  });
});

describe('a project kept under a temp directory', () => {
  it('is the project, not scratch, to the catalogue, even where no repository says so', () => {
    // A project in the test's temp directory, holding no git repository at all.
    const sandbox = join(base, 'sandbox');
    mkdirSync(join(sandbox, 'src'), { recursive: true });
    writeFileSync(join(sandbox, 'src', 'a.ts'), 'a\n');
    mkdirSync(join(base, 'scratch', 'junk'), { recursive: true });
    const there = (command: string) =>
      classify(policy, { tool: 'shell', args: { command } }, undefined, {
        project: { root: sandbox, home, gate: [], temp: ['/tmp'] },
        context: { cwd: sandbox, home, files: nodeFileView() },
      }).class;
    expect(there(`rm -rf ${sandbox}/src`)).toBe('irreversible');
    expect(there('rm -rf "$PWD"/src')).toBe('irreversible');
    expect(there(`find ${sandbox}/src -delete`)).toBe('irreversible');
    expect(there(`rm -rf ${join(base, 'scratch', 'junk')}`)).not.toBe('irreversible');
  });
});
