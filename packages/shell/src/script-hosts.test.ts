// What runs a script file, beside the file itself: the program its #! line names (a project file,
// env -S with code or assignments), BASH_ENV given to a ./script, the package managers' config
// flags, make's variables from the command line and the environment, its default goal and optional
// includes, and the scripts npm, yarn and pnpm run around the named one.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFileView, parseShell, type ResolveContext } from './index.js';
import { type TempTree, tempTree } from './testing/temp-tree.js';

let tree: TempTree;
let root: string;
let ctx: ResolveContext;

const put = (path: string, text: string, mode = 0o644): void => tree.put(path, text, mode);

beforeAll(() => {
  tree = tempTree('hosts');
  root = tree.root;
  put('tools/bash', '#!/bin/sh\nrm -rf "$HOME/x"\n', 0o755);
  put('local-interp.sh', '#!tools/bash\necho hi\n', 0o755);
  put('env-code.sh', '#!/usr/bin/env -S bash -c "rm -rf /home/u/x"\necho hi\n', 0o755);
  put('env-path.sh', '#!/usr/bin/env -S PATH=./tools bash\necho hi\n', 0o755);
  put('errexit.sh', '#!/bin/bash -e\necho hi\n', 0o755);
  put('py-u.py', '#!/usr/bin/env -S python3 -u\nprint(1)\n', 0o755);
  put('plain.sh', '#!/usr/bin/env bash\necho hi\n', 0o755);
  put('.git/HEAD', 'ref: refs/heads/main\n');
  put('deep/er/.keep', '');
  put('conftest.py', 'import pytest\n');
  put('build.rs', 'fn main() {}\n');
  put('rcfile.sh', '#!/usr/bin/env -S bash --rcfile x -i\necho hi\n', 0o755);
  put(
    'Makefile',
    [
      'GO ?= go',
      '.DEFAULT_GOAL := nuke',
      '-include local.mk',
      'all:',
      '\t$(GO) build ./...',
      'test:',
      '\t$(GO) test ./...',
      'nuke:',
      '\trm -rf /srv/data',
      '',
    ].join('\n'),
  );
  put('target-shell/Makefile', 'test: SHELL := ./evil.sh\ntest:\n\techo hi\n');
  put(
    'package.json',
    JSON.stringify({
      scripts: {
        build: 'tsc',
        prebuild: 'rm -rf /srv/data',
        stop: 'rm -rf /srv/data',
        start: 'node server.js',
      },
    }),
  );
  const django = [
    '#!/usr/bin/env python',
    'import os',
    'import sys',
    'if __name__ == "__main__":',
    '    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site.settings")',
    '    from django.core.management import execute_from_command_line',
    '    execute_from_command_line(sys.argv)',
    '',
  ].join('\n');
  put('web/manage.py', django, 0o755);
  put(
    'web/tampered/manage.py',
    django.replace('import sys', 'import sys\nimport shutil\nshutil.rmtree("data")'),
    0o755,
  );
  put(
    'web/bin/rails',
    '#!/usr/bin/env ruby\nAPP_PATH = File.expand_path("../config/application", __dir__)\nrequire_relative "../config/boot"\nrequire "rails/commands"\n',
    0o755,
  );
  put(
    'rs/justfile',
    [
      'set positional-arguments',
      "name := 'app'",
      'version := `git describe --tags`',
      'alias b := build',
      '',
      '# the default recipe',
      'check: fmt',
      '    cargo test',
      '',
      'fmt:',
      '    @cargo fmt --check',
      '',
      'build target="debug": fmt',
      '    cargo build --profile {{target}}',
      '',
      'clean:',
      '    -rm -rf coverage',
      '',
      'nuke:',
      '    rm -rf ~/important',
      '',
      'wipe: nuke',
      '    echo done',
      '',
      'sh-body:',
      '    #!/usr/bin/env bash',
      '    set -euo pipefail',
      '    git push --force origin main',
      '',
      'tick arg=`rm -rf ~/important`:',
      '    echo {{arg}}',
      '',
      'inner:',
      '    echo {{`rm -rf ~/important`}}',
      '',
      'say c:',
      '    echo x{{c}}',
      '',
      'greet who="world":',
      '    echo hello {{who}} {{version}} {{name}}',
      '',
      'py-body:',
      '    #!/usr/bin/env python3',
      '    print(1)',
      '',
    ].join('\n'),
  );
  put('rs/crate/src/lib.rs', '');
  put('dot/justfile', 'set dotenv-load\nrun:\n    cargo run\n');
  put('tk/Taskfile.yml', 'version: "3"\ntasks:\n  build:\n    cmds: [rm -rf ~/important]\n');
  put('rb/Rakefile', 'task :build do\n  sh "rm -rf ~/important"\nend\n');
  const gradlew = [
    '#!/bin/sh',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text
    'APP_HOME=$( cd -P "${APP_HOME:-./}.." > /dev/null && printf \'%s\\n\' "$PWD" ) || exit',
    'if [ -n "$JAVA_HOME" ] ; then',
    '    JAVACMD=$JAVA_HOME/bin/java',
    'else',
    '    JAVACMD=java',
    'fi',
    'set -- -classpath "$APP_HOME/gradle/wrapper/gradle-wrapper.jar" org.gradle.wrapper.GradleWrapperMain "$@"',
    'eval "set -- $(',
    '        printf \'%s\\n\' "$DEFAULT_JVM_OPTS $JAVA_OPTS $GRADLE_OPTS" |',
    '        xargs -n1 |',
    "        sed ' s~[^-[:alnum:]+,./:=@_]~\\\\&~g; ' |",
    "        tr '\\n' ' '",
    '    )" \'"$@"\'',
    'exec "$JAVACMD" "$@"',
    '',
  ].join('\n');
  put('bare/setup', 'rm -rf ~/important\n');
  put('jvm/gradlew', gradlew, 0o755);
  put('jvm/gradle/wrapper/gradle-wrapper.properties', 'distributionUrl=x\n');
  put('jvm-bare/gradlew', gradlew, 0o755);
  put('jvm-evil/gradlew', gradlew.replace('exec "$JAVACMD"', 'rm -rf ~/important\nexec "$JAVACMD"'), 0o755);
  put('jvm-evil/gradle/wrapper/gradle-wrapper.properties', 'distributionUrl=x\n');
  ctx = { cwd: root, home: join(root, 'home'), path: '/usr/bin:/bin', files: nodeFileView() };
});
afterAll(() => tree.remove());

const parse = (command: string, cwd = root) => parseShell(command, { context: { ...ctx, cwd } });
const kinds = (command: string, cwd?: string) => parse(command, cwd).dynamic.map((d) => d.kind);
const programs = (command: string, cwd?: string) => parse(command, cwd).segments.map((s) => s.program);

describe('#! lines', () => {
  it.each(['./local-interp.sh', './env-code.sh', './env-path.sh'])(
    'a program that is a project file, code or a changed PATH on the line is unknown: %s',
    (command) => {
      expect(kinds(command)).toContain('unreadable_script');
    },
  );

  it.each(['./errexit.sh', './py-u.py', './plain.sh'])(
    'an ordinary #! line is read as before: %s',
    (command) => {
      expect(kinds(command)).toEqual([]);
    },
  );

  it('BASH_ENV given to a bash script is read first: dynamic', () => {
    expect(kinds('BASH_ENV=evil.env ./plain.sh')).toContain('startup_variable');
  });
});

describe('package manager config flags', () => {
  it.each([
    'npm test --script-shell=./evil.sh',
    'npm run build --script-shell ./evil.sh',
    'pnpm test --shell=./evil.sh',
  ])('a command in a config flag is judged as the command it is: %s', (command) => {
    expect(programs(command)).toContain('evil.sh');
  });

  it.each(['npm test --userconfig ./x.rc', 'npm test --node-options="--require ./evil.js"'])(
    'a config file or node options given as a flag are unknown: %s',
    (command) => {
      expect(kinds(command)).toContain('unresolved_config');
    },
  );
});

describe('make', () => {
  it('takes variables from the environment and the command line', () => {
    expect(programs(`GO='rm -rf /srv/data ;' make test`)).toContain('rm');
    expect(kinds('make SHELL=./evil.sh test')).toContain('unresolved_script');
    expect(kinds('make .SHELLFLAGS="-c rm" test')).toContain('unresolved_script');
    expect(kinds('MAKEFILES=evil.mk make all')).toContain('unresolved_script');
    expect(kinds('make test SHELL=/bin/bash')).toEqual([]);
  });

  it('runs .DEFAULT_GOAL when no goal is given, and skips a missing -include', () => {
    expect(programs('make')).toContain('rm');
    expect(kinds('make all')).toEqual([]);
    expect(programs('make all')).toContain('go');
  });

  it('reads a target-specific SHELL as unknown', () => {
    expect(kinds('make test', join(root, 'target-shell'))).toContain('unresolved_script');
  });
});

describe('package scripts around the named one', () => {
  it.each(['yarn build', 'yarn run build', 'pnpm run build'])(
    'pre and post scripts run too: %s',
    (command) => {
      expect(programs(command)).toContain('rm');
    },
  );

  it('npm restart without a restart script runs stop and start', () => {
    expect(programs('npm restart')).toContain('rm');
  });
});

describe('framework launchers', () => {
  it.each(['python manage.py check', './manage.py test', 'python3 manage.py runserver', 'bin/rails routes'])(
    'the generated launcher is the framework CLI, judged by its words: %s',
    (command) => {
      expect(kinds(command, join(root, 'web'))).toEqual([]);
    },
  );

  it('a launcher with code added is code like any other', () => {
    expect(kinds('python manage.py check', join(root, 'web', 'tampered'))).toContain('interpreter_code');
  });
});

describe('scripts written by other writers in the same command', () => {
  it.each([
    'xxd -r p.hex plain.sh && ./plain.sh',
    'cmake -E copy evil plain.sh && sh plain.sh',
    'gzip -d q.sh.gz && ./q.sh',
    'split -n1 -a1 -d --additional-suffix=.sh e.txt x && chmod +x x0.sh && ./x0.sh',
    'dos2unix plain.sh && ./plain.sh',
  ])('%s', (command) => {
    expect(kinds(command)).toContain('script_written_by_command');
  });
});

describe('options whose value is a program', () => {
  it.each([
    'sftp -S ./evil.sh localhost',
    'sftp -S./evil.sh localhost',
    'wget --use-askpass=./evil.sh http://example.com/',
    'aria2c --on-download-complete=./evil.sh http://example.com/y',
    'sort -S 64k -T . --compress-program=./evil.sh nums.txt',
    'sort --compress-p ./evil.sh -u nums.txt',
  ])('%s runs its program', (command) => {
    expect(programs(command)).toContain('evil.sh');
  });
});

describe('review of this round', () => {
  it('a script shell that is no POSIX shell reads the scripts as its own code: unknown', () => {
    expect(kinds('npm run build --script-shell=python3')).toContain('unresolved_config');
    expect(kinds('npm run build --script-shell=bash')).not.toContain('unresolved_config');
  });

  it('make takes every assignment operator on its command line; != runs a command', () => {
    expect(programs(`make test GO:='rm -rf /srv/data ;'`)).toContain('rm');
    expect(kinds('make "CMD!=echo hi" test')).toContain('unresolved_script');
  });

  it('make where the directory cannot be told reads no makefile: unknown', () => {
    expect(kinds('cd "$(cat dir.txt)" && make test')).toContain('unresolved_script');
  });

  it('writers of other spellings: gzip --suffix, cmake -E tar', () => {
    expect(kinds('gzip --decompress --suffix=z q.shz; bash q.sh')).toContain('script_written_by_command');
    expect(kinds('cmake -E tar xf a.tar && bash plain.sh')).toContain('script_written_by_command');
  });

  it('#! with --rcfile is unknown', () => {
    expect(kinds('./rcfile.sh')).toContain('unreadable_script');
  });
});

describe('the work tree top', () => {
  it('git rev-parse --show-toplevel is where .git is: scripts there are read', () => {
    const facts = parse('cd "$(git rev-parse --show-toplevel)" && npm run build', join(root, 'deep', 'er'));
    expect(facts.dynamic.map((d) => d.kind)).not.toContain('unresolved_script');
    expect(facts.segments.map((s) => s.program)).toContain('rm');
  });
});

describe('package managers run a program that is no script of theirs', () => {
  it('pnpm and yarn run a word that names no script as exec would', () => {
    expect(programs('pnpm tsx scripts/x.ts')).toContain('tsx');
    expect(programs('yarn node scripts/x.js')).toContain('node');
    expect(programs('pnpm build')).toContain('tsc');
    expect(programs('pnpm build')).not.toContain('build');
  });
});

describe('pnpm, yarn and bun pass the words after the name on', () => {
  it('an unresolved word after the script or bin name cannot change what runs', () => {
    expect(kinds('git ls-files "*.ts" | xargs pnpm eslint')).not.toContain('unresolved_script');
    expect(kinds('git diff --name-only | xargs -r pnpm prettier --write')).not.toContain('unresolved_script');
    expect(kinds('pnpm "$SCRIPT"')).toContain('unresolved_script');
  });
});

describe('files a tool loads when it starts', () => {
  it('are listed as files the command runs: one the same command writes first is caught', () => {
    expect(kinds('echo "import shutil" > conftest.py && pytest')).toContain('script_written_by_command');
    expect(kinds('echo "import shutil" > conftest.py && python3 -m pytest')).toContain(
      'script_written_by_command',
    );
    expect(kinds('cp /tmp/x build.rs && cargo build')).toContain('script_written_by_command');
    expect(kinds('pytest -q')).toEqual([]);
    expect(kinds('cargo build')).toEqual([]);
    expect(kinds('cp /tmp/x build.rs && cargo fmt')).toEqual([]);
  });
});

describe("an interpreter's name among an unknown program's words", () => {
  it('is a package, a subject or a version unless code or a script follows it', () => {
    for (const command of [
      'which python3 node',
      'type node python3',
      'brew install python node',
      'uv python install 3.12',
      'volta install node pnpm',
      'pip install sh pytest',
      'npm i -D @types/node typescript',
    ])
      expect(kinds(command), command).toEqual([]);
  });

  it('runs what it is given: code, options or a script', () => {
    expect(programs(`retry python3 -c 'print(1)'`)).toContain('python3');
    expect(programs('with-lock bash ./wipe.sh')).toContain('bash');
    expect(programs('foo /usr/bin/python3 -c "print(1)"')).toContain('python3');
    expect(programs("printf '%s\\n' 'rm -rf /' | nerdctl exec -i c -- sh")).toContain('rm');
    expect(programs('tool -- node')).toContain('node');
    // A script named without an extension, there where the command runs.
    expect(programs('strace -f bash setup', join(root, 'bare'))).toContain('rm');
    expect(programs('fakeroot sh setup', join(root, 'bare'))).toContain('rm');
  });
});

describe("an executable file among an unknown program's words", () => {
  it('is the program the wrapper runs, its script judged', () => {
    put('wrap/deploy.sh', '#!/bin/sh\nrm -rf /srv/data\n', 0o755);
    put('wrap/notes.sh', '#!/bin/sh\nrm -rf /srv/data\n', 0o644);
    const cwd = join(root, 'wrap');
    for (const command of [
      'strace ./deploy.sh',
      'strace -f -o /tmp/trace.log ./deploy.sh',
      'fakeroot ./deploy.sh',
      'faketime now ./deploy.sh',
      'perf stat -e cycles ./deploy.sh',
      `setarch x86_64 ${join(cwd, 'deploy.sh')}`,
      'some-wrapper -- ../wrap/deploy.sh',
    ])
      expect(programs(command, cwd), command).toContain('rm');
  });

  it('is a subject where it cannot run, or where the program only inspects it', () => {
    const cwd = join(root, 'wrap');
    // Not executable: the kernel would not run it, so the word is a file the tool reads.
    expect(programs('strace ./notes.sh', cwd)).not.toContain('rm');
    expect(programs('prettier --check ./notes.sh', cwd)).not.toContain('rm');
    expect(programs('shellcheck ./deploy.sh', cwd)).not.toContain('rm');
    expect(programs('code ./deploy.sh', cwd)).not.toContain('rm');
  });
});

describe('recipe runners: a justfile is read as make reads a Makefile', () => {
  const rs = () => join(root, 'rs');
  it('judges the recipe, its dependencies and the variables evaluated when the file loads', () => {
    expect(programs('just', rs())).toEqual(expect.arrayContaining(['just', 'git', 'cargo']));
    expect(kinds('just', rs())).toEqual([]);
    expect(kinds('just b release', rs())).toEqual([]);
    expect(kinds('just --list', rs())).toEqual([]);
    // From a directory below the justfile, as just finds it.
    expect(kinds('just check', join(rs(), 'crate', 'src'))).toEqual([]);
    expect(programs('just clean', rs())).toContain('rm');
  });

  it('a destructive recipe, or one a dependency pulls in, is what the command runs', () => {
    expect(programs('just nuke', rs())).toContain('rm');
    expect(programs('just wipe', rs())).toContain('rm');
    expect(programs('just sh-body', rs())).toContain('git');
  });

  it('an interpolation is pasted as just pastes it: an argument runs as shell text', () => {
    expect(programs('just say "$(rm -rf ~/important)"', rs())).toContain('rm');
    expect(programs('just say ";rm -rf ~/important"', rs())).toContain('rm');
    expect(kinds('just say hi', rs())).toEqual([]);
    // A literal variable is known; one from a backtick is not, nor a backtick default or interpolation.
    expect(kinds('just greet', rs())).toContain('unresolved_script');
    expect(kinds('just tick', rs())).toContain('unresolved_script');
    expect(kinds('just tick x', rs())).toEqual([]);
    expect(kinds('just inner', rs())).toContain('unresolved_script');
  });

  it('what cannot be read is unknown: another interpreter, a loaded .env, a changed shell, an unknown recipe', () => {
    expect(kinds('just py-body', rs())).toContain('unresolved_script');
    expect(kinds('just nosuch', rs())).toContain('unresolved_script');
    expect(kinds('just --shell python3 check', rs())).toContain('unresolved_script');
    // Where the directory cannot be told, neither can the justfile.
    expect(kinds('cd "$D" && just check', rs())).toContain('unresolved_script');
    expect(kinds('just run', join(root, 'dot'))).toContain('unresolved_script');
  });

  it('a Taskfile and a Rakefile are project code the tool loads: listed, not read', () => {
    expect(parse('task build', join(root, 'tk')).scripts).toContain(join(root, 'tk', 'Taskfile.yml'));
    expect(parse('rake build', join(root, 'rb')).scripts).toContain(join(root, 'rb', 'Rakefile'));
    expect(kinds('rake build', join(root, 'rb'))).toEqual([]);
  });

  it('meson.build, a pre-commit config, a Vagrantfile, a Gemfile and a Brewfile are code the tool runs', () => {
    for (const name of [
      'meson.build',
      '.pre-commit-config.yaml',
      'Vagrantfile',
      'Gemfile',
      'Brewfile',
      'ci.yaml',
    ])
      put(`loads/${name}`, '# x\n');
    const cwd = join(root, 'loads');
    const scriptsOf = (command: string) => parse(command, cwd).scripts ?? [];
    expect(scriptsOf('meson setup build')).toContain(join(cwd, 'meson.build'));
    expect(scriptsOf('pre-commit run --all-files')).toContain(join(cwd, '.pre-commit-config.yaml'));
    expect(scriptsOf('pre-commit run -c ci.yaml')).toContain(join(cwd, 'ci.yaml'));
    expect(scriptsOf('vagrant up')).toContain(join(cwd, 'Vagrantfile'));
    expect(scriptsOf('bundle exec rspec')).toContain(join(cwd, 'Gemfile'));
    expect(scriptsOf('brew bundle')).toContain(join(cwd, 'Brewfile'));
    expect(scriptsOf('brew install jq')).not.toContain(join(cwd, 'Brewfile'));
  });
});

describe("a JVM build wrapper's generated statements", () => {
  it('are forgiven beside the wrapper properties; the rest of the file is judged', () => {
    expect(kinds('./gradlew build', join(root, 'jvm'))).toEqual([]);
    expect(kinds('sh gradlew clean test', join(root, 'jvm'))).toEqual([]);
    expect(programs('./gradlew build', join(root, 'jvm-evil'))).toContain('rm');
  });

  it('stay unknown without the properties, or when the command sets what they read', () => {
    expect(kinds('./gradlew build', join(root, 'jvm-bare'))).toContain('substitution_in_command_position');
    expect(kinds('JAVA_HOME=/tmp/x ./gradlew build', join(root, 'jvm'))).toContain(
      'substitution_in_command_position',
    );
    expect(kinds('export JAVA_OPTS=-Dx=1; ./gradlew build', join(root, 'jvm'))).toContain('eval');
  });
});
