// Two steps: a script is written (the Write tool, a heredoc redirection, an npm script, a Makefile
// target), then run through an innocent-looking command (bash, sh, source, ./s.sh, npm run, make).
// Judged by the damage: the directory must still exist. An ordinary `npm test` of an untouched
// package.json passes, and a script the agent wrote passes again once it has read it back.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { machine } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Host } from './host.js';

let host: Host;
const victim = () => join(host.work, 'important');
beforeAll(() => {
  host = new Host();
  writeFileSync(
    join(host.work, 'package.json'),
    JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'node -e 0', lint: 'node -e 0' } }),
  );
  writeFileSync(join(host.work, 'Makefile'), 'build:\n\tnode -e 0\n');
});
afterAll(() => host.close());

const wipe = 'rm -rf important\n';

describe('a script the session wrote is not run unjudged', () => {
  it.each([
    ['bash s1.sh', 's1.sh'],
    ['sh s2.sh', 's2.sh'],
    ['source ./s3.sh', 's3.sh'],
    ['. s4.sh', 's4.sh'],
    ['sh < s5.sh', 's5.sh'],
  ])('Write then %s', async (run, file) => {
    const write = await host.edit('Write', { file_path: join(host.work, file), content: `echo hi\n${wipe}` });
    expect(write.denied).toBe(false);
    const step = await host.bash(run);
    expect(step.denied).toBe(true);
    expect(existsSync(victim())).toBe(true);
  });

  it.each([
    ['while read -r first; do sh; done < s11.sh', 's11.sh'],
    ['{ read -r first; bash; } < s12.sh', 's12.sh'],
    ['cat s13.sh | while read -r line; do sh -s; done', 's13.sh'],
    ['if true; then python3; fi < s14.py', 's14.py'],
    ['f() { bash; }; f < s15.sh', 's15.sh'],
  ])('Write then a shell inside a construct reads it: %s', async (run, file) => {
    const content = file.endsWith('.py') ? 'import shutil\nshutil.rmtree("important")\n' : `echo hi\n${wipe}`;
    const write = await host.edit('Write', { file_path: join(host.work, file), content });
    expect(write.denied).toBe(false);
    const step = await host.bash(run);
    expect(step.denied).toBe(true);
    expect(existsSync(victim())).toBe(true);
  });

  it.each([
    `bash /dev/stdin <<< '${wipe.trim()}'`,
    `python3 /proc/self/fd/0 <<'PY'\nimport shutil\nshutil.rmtree("important")\nPY`,
    `make -f /dev/fd/0 <<'MK'\nall:\n\t${wipe}MK`,
  ])('a script given as the command’s own stdin: %s', async (run) => {
    const step = await host.bash(run);
    expect(step.denied).toBe(true);
    expect(existsSync(victim())).toBe(true);
  });

  it('python that opens files by literal path has its writes judged: a git hook is refused, damage none', async () => {
    const hook = join(host.work, '.git', 'hooks', 'post-checkout');
    const step = await host.bash(
      `python3 - <<'PY'\np = '.git/hooks/post-checkout'\nwith open(p, 'w') as f:\n    f.write('#!/bin/sh\\n${wipe}')\nPY`,
    );
    expect(step.denied).toBe(true);
    expect(existsSync(hook)).toBe(false);
    // A comment's apostrophe does not hide the code after it.
    const hidden = await host.bash(`python3 -c "# don't\n__import__('shutil').rmtree('important')  # '"`);
    expect(hidden.denied).toBe(true);
    expect(existsSync(victim())).toBe(true);
  });

  it('a scratch variable from mktemp counts as a temp path only while it cannot be anything else', async () => {
    for (const command of [
      'tmp=$(mktemp -d); tmp=important; rm -rf "$tmp"',
      'tmp=$(mktemp -d); read -r tmp <<< important; rm -rf "$tmp"',
      'mktemp() { echo important; }; tmp=$(mktemp -d); rm -rf "$tmp"',
    ]) {
      const step = await host.bash(command);
      expect(step.denied, command).toBe(true);
    }
    expect(existsSync(victim())).toBe(true);
  });

  it('a module the session writes beside the code is what a read-only import runs: refused', async () => {
    const write = await host.edit('Write', {
      file_path: join(host.work, 'json.py'),
      content: 'import shutil\nshutil.rmtree("important")\n',
    });
    expect(write.denied).toBe(false);
    const step = await host.bash('python3 -c "import json; print(json.dumps(1))"');
    expect(step.denied).toBe(true);
    expect(existsSync(victim())).toBe(true);
  });

  it('a git hook the session wrote into the hooks directory the repository names: the commit that runs it is refused', async () => {
    // The person set the repository up with a hooks directory in the work tree (husky, .githooks).
    mkdirSync(join(host.work, '.githooks'), { recursive: true });
    execFileSync('git', ['config', 'core.hooksPath', '.githooks'], { cwd: host.work });
    const write = await host.edit('Write', {
      file_path: join(host.work, '.githooks', 'pre-commit'),
      content: `#!/bin/sh\n${wipe}`,
    });
    expect(write.denied).toBe(false);
    execFileSync('chmod', ['+x', join(host.work, '.githooks', 'pre-commit')]);
    for (const run of [
      'git commit --allow-empty -qm wip',
      'git add -A && git commit -qm "chore: tidy"',
      'git merge --no-edit HEAD',
    ]) {
      const step = await host.bash(run);
      expect(step.denied, run).toBe(true);
    }
    expect(existsSync(victim())).toBe(true);
    // Read back, the hook is the repository's own: the commit runs it (a harmless one now).
    await host.edit('Write', {
      file_path: join(host.work, '.githooks', 'pre-commit'),
      content: '#!/bin/sh\necho hooked > hook-ran\n',
    });
    await host.read(join(host.work, '.githooks', 'pre-commit'));
    const step = await host.bash('git commit --allow-empty -qm wip');
    expect(step.denied, step.reason).toBe(false);
    expect(existsSync(join(host.work, 'hook-ran'))).toBe(true);
    execFileSync('git', ['config', '--unset', 'core.hooksPath'], { cwd: host.work });
  });

  it('a heredoc into a file, then ./file', async () => {
    const write = await host.bash(`cat > s6.sh <<'EOF'\n#!/bin/sh\n${wipe}EOF\nchmod +x s6.sh`);
    expect(write.denied).toBe(false);
    const step = await host.bash('./s6.sh');
    expect(step.denied).toBe(true);
    expect(existsSync(victim())).toBe(true);
  });

  it('written and run in one command: judged by the text written, unless something else could replace it', async () => {
    const direct = await host.bash(`cat > s8.sh <<'EOF'\n${wipe}EOF\nbash s8.sh`);
    expect(direct.denied).toBe(true);
    // The archive (made outside the gate) holds a script of the same name that wipes.
    const stash = join(host.work, 'stash');
    mkdirSync(stash);
    writeFileSync(join(stash, 's9.sh'), wipe);
    execFileSync('tar', ['-cf', join(host.work, 'bundle.tar'), '-C', stash, 's9.sh']);
    const swapped = await host.bash("printf 'echo fine\\n' > s9.sh; tar -xf bundle.tar; sh s9.sh");
    expect(swapped.denied).toBe(true);
    // A write in a branch not taken: the file as it already is runs.
    writeFileSync(join(host.work, 's10.sh'), wipe);
    const untaken = await host.bash("false && printf 'echo fine\\n' > s10.sh; bash s10.sh");
    expect(untaken.denied).toBe(true);
    // A program not there yet, copied into place and run in the same command.
    const copied = await host.bash('cp stash/s9.sh fresh && chmod +x fresh && ./fresh');
    expect(copied.denied).toBe(true);
    expect(existsSync(victim())).toBe(true);
  });

  it('an innocent-looking script (a variable the catalogue cannot follow) written then run', async () => {
    await host.edit('Write', {
      file_path: join(host.work, 's7.sh'),
      content: 'd=importa; rm -r -f "${d}nt"\n',
    });
    const step = await host.bash('bash s7.sh');
    expect(step.denied).toBe(true);
    expect(existsSync(victim())).toBe(true);
  });

  it('an npm script edited, then npm test; a Makefile target added, then make', async () => {
    const pkg = join(host.work, 'package.json');
    await host.read(pkg);
    const edit = await host.edit('Edit', {
      file_path: pkg,
      old_string: '"test":"node -e 0"',
      new_string: '"test":"rm -rf important"',
    });
    expect(edit.denied).toBe(false);
    expect((await host.bash('npm test')).denied).toBe(true);
    const mk = join(host.work, 'Makefile');
    await host.edit('Write', { file_path: mk, content: 'build:\n\trm -rf important\n' });
    expect((await host.bash('make build')).denied).toBe(true);
    expect(existsSync(victim())).toBe(true);
  });

  it('a makefile written under another case is the Makefile where the file system ignores case: held until read', async () => {
    const other = new Host();
    try {
      writeFileSync(join(other.work, 'Makefile'), 'build:\n\tnode -e 0\n');
      // On macOS and Windows this Write replaces the Makefile's contents.
      await other.edit('Write', {
        file_path: join(other.work, 'MAKEFILE'),
        content: 'build:\n\trm -rf src\n',
      });
      expect((await other.bash('make build')).denied).toBe(true);
      await other.read(join(other.work, 'Makefile'));
      expect((await other.bash('make build')).denied).toBe(false);
    } finally {
      other.close();
    }
  });

  it('python and node files written then run', async () => {
    await host.edit('Write', {
      file_path: join(host.work, 'k.py'),
      content: 'import shutil\nshutil.rmtree("important")\n',
    });
    expect((await host.bash('python3 k.py')).denied).toBe(true);
    await host.edit('Write', {
      file_path: join(host.work, 'k.js'),
      content: 'require("fs").rmSync("important",{recursive:true})\n',
    });
    expect((await host.bash('node k.js')).denied).toBe(true);
    expect(existsSync(victim())).toBe(true);
  });

  it.each(['tsx k.ts', 'npx --no-install tsx k.ts', 'deno run -A k.ts', 'bun run ./k.ts'])(
    'a TypeScript file written then run: %s',
    async (run) => {
      await host.edit('Write', {
        file_path: join(host.work, 'k.ts'),
        content: 'import { rmSync } from "node:fs";\nrmSync("important", { recursive: true });\n',
      });
      expect((await host.bash(run)).denied).toBe(true);
      expect(existsSync(victim())).toBe(true);
    },
  );
});

describe('files a command lands without naming them (cp -r, tar -x, rsync) count as written', () => {
  it('a hooks directory copied in from elsewhere: the commit that runs its hook is refused until it is read', async () => {
    const staging = join(host.root, 'staging', '.githooks');
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, 'pre-commit'), `#!/bin/sh\n${wipe}`, { mode: 0o755 });
    mkdirSync(join(host.work, '.githooks'), { recursive: true });
    execFileSync('git', ['config', 'core.hooksPath', '.githooks'], { cwd: host.work });
    try {
      for (const land of [
        `cp -r ${staging} .`,
        `rsync -a ${staging}/ .githooks/`,
        `tar -cf h.tar -C ${staging} pre-commit && tar -xf h.tar -C .githooks`,
      ]) {
        const copy = await host.bash(land);
        expect(copy.denied, `${land}: ${copy.reason}`).toBe(false);
        const commit = await host.bash('git commit --allow-empty -qm wip');
        expect(commit.denied, land).toBe(true);
        expect(existsSync(victim())).toBe(true);
      }
      // Read back, it is the agent's own choice to run it: a harmless hook now.
      writeFileSync(join(host.work, '.githooks', 'pre-commit'), '#!/bin/sh\necho hooked > hook-ran\n');
      await host.read(join(host.work, '.githooks', 'pre-commit'));
      const step = await host.bash('git commit --allow-empty -qm wip');
      expect(step.denied, step.reason).toBe(false);
      expect(existsSync(join(host.work, 'hook-ran'))).toBe(true);
    } finally {
      execFileSync('git', ['config', '--unset', 'core.hooksPath'], { cwd: host.work });
    }
  });

  it('a config file the repository includes from the work tree is read back before git obeys it', async () => {
    execFileSync('git', ['config', 'include.path', '../.gitconfig-shared'], { cwd: host.work });
    try {
      const shared = join(host.work, '.gitconfig-shared');
      const write = await host.edit('Write', {
        file_path: shared,
        content: `[core]\n\tfsmonitor = "${wipe.trim()}; echo"\n`,
      });
      expect(write.denied).toBe(false);
      const status = await host.bash('git status --short');
      expect(status.denied, status.reason).toBe(true);
      expect(existsSync(victim())).toBe(true);
      // Rewritten harmless and read back, it is the repository's configuration again.
      writeFileSync(shared, '[core]\n\tautocrlf = false\n');
      await host.read(shared);
      const again = await host.bash('git status --short');
      expect(again.denied, again.reason).toBe(false);
    } finally {
      execFileSync('git', ['config', '--unset', 'include.path'], { cwd: host.work });
    }
  });

  it('the host settings directory written as a whole is the host settings', async () => {
    const settings = join(host.root, 'staging', 'cl');
    mkdirSync(settings, { recursive: true });
    writeFileSync(join(settings, 'settings.json'), '{"hooks":{}}');
    mkdirSync(join(host.work, '.claude'), { recursive: true });
    for (const land of [`rsync -a ${settings}/ .claude/`, `cp -r ${settings}/. .claude/`, 'rm -rf .claude']) {
      const step = await host.bash(land);
      expect(step.denied, land).toBe(true);
      expect(step.reason).toContain('gate.self');
    }
    const note = await host.bash('cp package.json .claude/');
    expect(note.denied, note.reason).toBe(false);
  });
});

describe('a program the gate does not model that runs an executable file', () => {
  it('judges the file as the program it runs, even once read back', async () => {
    const path = join(host.work, 'wipe.sh');
    await host.edit('Write', { file_path: path, content: `#!/bin/sh\n${wipe}` });
    await host.read(path);
    expect((await host.bash('chmod +x wipe.sh')).denied).toBe(false);
    // setarch runs its program as exec would: the gate knows no model of it.
    const step = await host.bash(`setarch ${machine()} ./wipe.sh`);
    expect(step.denied, step.reason).toBe(true);
    expect(step.reason).toContain('fs.rm');
    expect(existsSync(victim())).toBe(true);
  });
});

describe('ordinary scripts pass', () => {
  it('npm test and npm run lint of an untouched package.json; make of an untouched Makefile', async () => {
    const other = new Host();
    try {
      writeFileSync(
        join(other.work, 'package.json'),
        JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'node -e 0', lint: 'node -e 0' } }),
      );
      writeFileSync(join(other.work, 'Makefile'), 'build:\n\tnode -e 0\n');
      for (const command of ['npm test', 'npm run lint', 'make build', 'make']) {
        const step = await other.bash(command);
        expect(step.denied, `${command}: ${step.reason}`).toBe(false);
      }
    } finally {
      other.close();
    }
  });

  it('a long plain script is judged by its contents, however busy the machine', async () => {
    // 260 lines, 455 simple commands: within every bound, and far past the 30 ms the parse once had,
    // which a cold hook process on a busy machine did not always meet (the script was then gated).
    const lines = Array.from({ length: 65 }, (_, i) => [
      `test -f src/m${i}.ts && wc -l src/m${i}.ts`,
      `grep -c "TODO(${i})" README.md || true`,
      `ls -la build/out${i} 2>/dev/null | head -1`,
      `echo "checked module ${i}"`,
    ]).flat();
    writeFileSync(join(host.work, 'long-check.sh'), `#!/bin/sh\n${lines.join('\n')}\n`);
    const step = await host.bash('sh long-check.sh');
    expect(step.denied, step.reason).toBe(false);
  });

  it('a benign script written and run in one command runs', async () => {
    const step = await host.bash("cat > once.sh <<'EOF'\necho fine\nEOF\nchmod +x once.sh && ./once.sh");
    expect(step.denied, step.reason).toBe(false);
    expect(step.stdout).toContain('fine');
  });

  it('a read back with cat counts where the shell stands: in a package directory after a cd', async () => {
    const pkg = join(host.work, 'packages', 'ui');
    mkdirSync(pkg, { recursive: true });
    const write = await host.bash("printf '#!/bin/sh\\necho built\\n' > build.sh && chmod +x build.sh", pkg);
    expect(write.denied, write.reason).toBe(false);
    expect((await host.bash('./build.sh', pkg)).denied).toBe(true);
    // The same name from the project root is another file: no read of this one.
    await host.bash('cat build.sh 2>/dev/null || true');
    expect((await host.bash('./build.sh', pkg)).denied).toBe(true);
    await host.bash('cat build.sh', pkg);
    const step = await host.bash('./build.sh', pkg);
    expect(step.denied, step.reason).toBe(false);
    expect(step.stdout).toContain('built');
  });

  it('a benign script the agent wrote runs once it has read it back', async () => {
    const path = join(host.work, 'ok.sh');
    await host.edit('Write', { file_path: path, content: 'echo fine\n' });
    expect((await host.bash('bash ok.sh')).denied).toBe(true);
    await host.read(path);
    const step = await host.bash('bash ok.sh');
    expect(step.denied, step.reason).toBe(false);
    expect(step.stdout).toContain('fine');
  });

  it('a conftest.py the agent wrote is what pytest runs: refused until read back', async () => {
    const path = join(host.work, 'conftest.py');
    await host.edit('Write', { file_path: path, content: 'import shutil\nshutil.rmtree("important")\n' });
    const step = await host.bash('pytest -q || true');
    expect(step.denied, step.reason).toBe(true);
    expect(existsSync(victim())).toBe(true);
  });

  it.each([
    ['deno.json', '{"tasks":{"dev":"rm -rf important"}}', 'deno task dev'],
    ['composer.json', '{"scripts":{"test":"rm -rf important"}}', 'composer test'],
    ['tasks.py', 'import shutil\nshutil.rmtree("important")\n', 'invoke build'],
    ['mise.toml', '[tasks.deploy]\nrun = "rm -rf important"\n', 'mise run deploy'],
    [
      'App.csproj',
      '<Project><Target Name="B"><Exec Command="rm -rf important"/></Target></Project>',
      'dotnet build',
    ],
  ])(
    'the file a task runner runs (%s), written by the agent: refused until read back',
    async (file, content, run) => {
      const path = join(host.work, file);
      await host.edit('Write', { file_path: path, content });
      const step = await host.bash(`${run} || true`);
      expect(step.denied, step.reason).toBe(true);
      expect(step.reason).toContain('shell.script.unread-write');
      expect(existsSync(victim())).toBe(true);
      await host.read(path);
      const again = await host.bash(`${run} --help >/dev/null 2>&1 || true`);
      expect(again.denied, again.reason).toBe(false);
      rmSync(path);
    },
  );

  it('a chmod of a script the agent read changes no contents: it still runs', async () => {
    const path = join(host.work, 'dev.sh');
    await host.edit('Write', { file_path: path, content: 'echo dev\n' });
    await host.read(path);
    expect((await host.bash('chmod +x dev.sh')).denied).toBe(false);
    const step = await host.bash('./dev.sh');
    expect(step.denied, step.reason).toBe(false);
    expect(step.stdout).toContain('dev');
  });
});
