// Files a tool loads when it starts, beyond the table's conftest.py and Taskfile: a PYTHONPATH's
// sitecustomize.py, the local projects pip, uv, poetry, pipx and `python -m build` build, cmake's
// CMakeLists.txt and scripts, cargo's manifests and config, JS tools' configs (named or found),
// compose files, Maven's and Gradle's build files, and local npm packages. Each is listed among the
// command's scripts when it is there (so core refuses one the session wrote and has not read back),
// nothing when it is not, and a write of it earlier in the same command is caught.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFileView, parseShell, type ResolveContext } from './index.js';
import { localRequirement, readManifest } from './loaded-projects.js';
import { type TempTree, tempTree } from './testing/temp-tree.js';

let tree: TempTree;
let root: string;
let ctx: ResolveContext;

const put: TempTree['put'] = (path, text, mode) => tree.put(path, text, mode);

beforeAll(() => {
  tree = tempTree('loaded');
  root = tree.root;
  mkdirSync(join(root, 'bare'));
  put('py/sitecustomize.py', 'import shutil\n');
  put('py/extra/usercustomize.py', 'import shutil\n');
  put('wheel/setup.py', 'from setuptools import setup\nsetup()\n');
  put('wheel/plugins/hook/pyproject.toml', '[build-system]\nrequires = ["hatchling"]\n');
  put('wheel/vendored/setup.py', 'setup()\n');
  put('wheel/dev.txt', '# editable checkouts\n-e ./plugins/hook\nrequests==2.0\n-r more.txt\n');
  put('wheel/more.txt', 'vendored @ file:./vendored\n');
  put('wheel/poetry/pyproject.toml', '[tool.poetry]\n');
  put('wheel/poetry/build.py', 'print(1)\n');
  put('cm/CMakeLists.txt', 'project(x)\n');
  put('cm/tools/fetch.cmake', 'file(REMOVE_RECURSE /)\n');
  put('cm/cross.cmake', 'set(CMAKE_SYSTEM_NAME Linux)\n');
  put('cm/out/CMakeCache.txt', `CMAKE_HOME_DIRECTORY:INTERNAL=${join(root, 'cm')}\n`);
  put(
    'crate/Cargo.toml',
    [
      '[package]',
      'name = "top"',
      'build = "codegen.rs" # not build.rs',
      '',
      '[dependencies]',
      'serde = "1"',
      'helper = { path = "helper", version = "0.1" }',
      '',
      "[target.'cfg(unix)'.build-dependencies.sys]",
      'path = "sys"',
      '',
      '[workspace]',
      'members = [',
      '  "members/*",',
      ']',
      '',
    ].join('\n'),
  );
  put('crate/codegen.rs', 'fn main() {}\n');
  put('crate/helper/Cargo.toml', '[package]\nname = "helper"\n');
  put('crate/helper/build.rs', 'fn main() {}\n');
  put('crate/sys/build.rs', 'fn main() {}\n');
  put('crate/members/one/build.rs', 'fn main() {}\n');
  put('crate/.cargo/config.toml', '[target.x86_64-unknown-linux-gnu]\nrunner = "./run.sh"\n');
  put('crate/src/main.rs', 'fn main() {}\n');
  put('web/gulpfile.mjs', 'export default () => {}\n');
  put('web/.prettierrc', '{ "plugins": ["./fmt-plugin.js"] }\n');
  put('web/lint/strict.cjs', 'module.exports = {}\n');
  put('web/.lintstagedrc.json', '{ "*": "rm -rf /" }\n');
  put('web/babel.config.json', '{ "plugins": ["./strip.js"] }\n');
  put('web/.mocharc.yml', 'require: ./setup.js\n');
  put('web/postcss.config.cjs', 'module.exports = {}\n');
  put('stack/compose.yaml', 'services: {}\n');
  put('stack/ci.compose.yml', 'services: {}\n');
  put('jvm/pom.xml', '<project/>\n');
  put('jvm/.mvn/jvm.config', '-javaagent:agent.jar\n');
  put('jvm/build.gradle.kts', 'tasks.register("x")\n');
  put('jvm/settings.gradle', 'include "app"\n');
  put('jvm/ci/init.gradle', 'allprojects {}\n');
  put('tasks/deno.jsonc', '{ "tasks": { "x": "rm -rf src" } }\n');
  put('tasks/composer.json', '{ "scripts": { "test": "rm -rf src" } }\n');
  put('tasks/pyproject.toml', '[tool.poe.tasks]\nx = { shell = "rm -rf src" }\n');
  put('tasks/tasks.py', 'from invoke import task\n');
  put('tasks/mix.exs', 'defmodule X do\nend\n');
  put('tasks/Earthfile', 'VERSION 0.7\n');
  put('tasks/mise.toml', '[tasks.deploy]\nrun = "rm -rf src"\n');
  put('tasks/.mise/tasks/wipe', '#!/bin/sh\nrm -rf src\n', 0o755);
  put('net/App.csproj', '<Project/>\n');
  put('net/Lib.fsproj', '<Project/>\n');
  put('net/Directory.Build.targets', '<Project/>\n');
  put('net/notes.txt', 'x\n');
  put('scala/build.sbt', 'val x = 1\n');
  put('scala/project/Deps.scala', 'object Deps\n');
  put(
    'mono/package.json',
    JSON.stringify({ dependencies: { util: 'file:./util' }, workspaces: ['packages/*'] }),
  );
  put('mono/util/package.json', '{"scripts":{"postinstall":"rm -rf ~"}}');
  put('mono/packages/ui/package.json', '{"scripts":{"prepare":"rm -rf ~"}}');
  put('mono/vendor/sdk/package.json', '{"scripts":{"install":"rm -rf ~"}}');
  put('mono/vendor/sdk/binding.gyp', '{}');
  put('venvp/.venv/pyvenv.cfg', 'home = /usr/bin\n');
  put('venvp/.venv/bin/python-real', '', 0o755);
  symlinkSync('/usr/bin/python3', join(root, 'venvp/.venv/bin/python'));
  put('venvp/.venv/bin/pytest', '#!/x/.venv/bin/python\nimport sys\n', 0o755);
  put('venvp/.venv/lib/python3.11/site-packages/zz.pth', "import shutil; shutil.rmtree('work', True)\n");
  put('venvp/.venv/lib/python3.11/site-packages/pkg/__init__.py', '');
  ctx = { cwd: root, home: join(root, 'home'), path: '/usr/bin:/bin', files: nodeFileView() };
});

afterAll(() => tree.remove());

const parse = (command: string, dir = '') =>
  parseShell(command, { context: { ...ctx, cwd: join(root, dir) } });
const scripts = (command: string, dir = '') => parse(command, dir).scripts ?? [];
const kinds = (command: string, dir = '') => parse(command, dir).dynamic.map((d) => d.kind);
const at = (...parts: string[]) => join(root, ...parts);

describe("a virtual environment's programs run the .pth files of its site-packages", () => {
  const pth = () => at('venvp/.venv/lib/python3.11/site-packages/zz.pth');
  it('lists them for its python and its console scripts, by path or found on PATH', () => {
    expect(scripts(".venv/bin/python -c 'print(1)'", 'venvp')).toContain(pth());
    expect(scripts('.venv/bin/pytest -q', 'venvp')).toContain(pth());
    const onPath = parseShell('python -V', {
      context: { ...ctx, cwd: at('venvp'), path: `${at('venvp/.venv/bin')}:/usr/bin:/bin` },
    });
    expect(onPath.scripts ?? []).toContain(pth());
  });

  it('lists nothing for a program outside an environment', () => {
    expect(scripts("python3 -c 'print(1)'", 'venvp')).not.toContain(pth());
  });
});

describe('PYTHONPATH puts sitecustomize.py where python imports it at start-up', () => {
  it('lists sitecustomize.py and usercustomize.py in each entry, the working directory for an empty one', () => {
    expect(scripts(`PYTHONPATH=. python3 -c 'print(1)'`, 'py')).toContain(at('py', 'sitecustomize.py'));
    expect(scripts(`env PYTHONPATH=extra python -c 1`, 'py')).toContain(
      at('py', 'extra', 'usercustomize.py'),
    );
    expect(scripts(`PYTHONPATH=/opt/x: python3 tool.py`, 'py')).toContain(at('py', 'sitecustomize.py'));
  });

  it('set in the shell, the commands after it load it too', () => {
    expect(scripts('export PYTHONPATH=.; python3 -c 1', 'py')).toContain(at('py', 'sitecustomize.py'));
    expect(scripts('PYTHONPATH=.:extra; export PYTHONPATH; pytest', 'py')).toContain(
      at('py', 'extra', 'usercustomize.py'),
    );
  });

  it('without PYTHONPATH the working directory joins sys.path after site ran: nothing is listed', () => {
    expect(scripts(`python3 -c 'print(1)'`, 'py')).toEqual([]);
    expect(scripts(`PYTHONPATH=. python3 -c 1`, 'bare')).toEqual([]);
  });

  it('one the same command writes first is caught', () => {
    expect(kinds(`echo 'import os' > sitecustomize.py && PYTHONPATH=. python3 -c 1`, 'py')).toContain(
      'script_written_by_command',
    );
  });
});

describe('Python build front-ends run the build files of the local projects they build', () => {
  it('pip install|wheel of a directory, an editable, or a requirement file naming one', () => {
    expect(scripts('pip install .', 'wheel')).toContain(at('wheel', 'setup.py'));
    expect(scripts('python3 -m pip install -q -e ./plugins/hook', 'wheel')).toContain(
      at('wheel', 'plugins', 'hook', 'pyproject.toml'),
    );
    expect(scripts('pip3 wheel --no-deps -w dist .', 'wheel')).toContain(at('wheel', 'setup.py'));
    const fromFile = scripts('pip install -r dev.txt', 'wheel');
    expect(fromFile).toContain(at('wheel', 'plugins', 'hook', 'pyproject.toml'));
    expect(fromFile).toContain(at('wheel', 'vendored', 'setup.py'));
  });

  it('uv, poetry, pipx and python -m build', () => {
    expect(scripts('uv pip install -e .', 'wheel')).toContain(at('wheel', 'setup.py'));
    expect(scripts('uv sync --frozen', 'wheel')).toContain(at('wheel', 'setup.py'));
    expect(scripts('uv run --directory plugins/hook pytest', 'wheel')).toContain(
      at('wheel', 'plugins', 'hook', 'pyproject.toml'),
    );
    expect(scripts('poetry install -C poetry', 'wheel')).toContain(at('wheel', 'poetry', 'build.py'));
    expect(scripts('pipx install --force .', 'wheel')).toContain(at('wheel', 'setup.py'));
    expect(scripts('python3 -m build --wheel', 'wheel')).toContain(at('wheel', 'setup.py'));
  });

  it('a package from an index, or a command that builds nothing, lists nothing', () => {
    expect(scripts('pip install requests "flask>=3"', 'wheel')).toEqual([]);
    expect(scripts('pip list', 'wheel')).toEqual([]);
    expect(scripts('uv run --no-sync pytest', 'wheel')).toEqual([]);
    expect(scripts('uv sync --help', 'wheel')).toEqual([]);
    expect(scripts('pip install .', 'bare')).toEqual([]);
  });

  it('reads local requirements as pip does', () => {
    expect(localRequirement('./dep[test]')).toBe('./dep');
    expect(localRequirement('pkg @ file:///srv/pkg')).toBe('/srv/pkg');
    expect(localRequirement('git+https://example.com/x.git')).toBeUndefined();
    expect(localRequirement('numpy>=1.2')).toBeUndefined();
  });
});

describe('cmake runs CMakeLists.txt when it configures, and the scripts it is given', () => {
  it('the source directory: -S, the operand, or the one a build directory cache names', () => {
    expect(scripts('cmake -S . -B out -G Ninja', 'cm')).toContain(at('cm', 'CMakeLists.txt'));
    expect(scripts('cmake ..', 'cm/out')).toContain(at('cm', 'CMakeLists.txt'));
    expect(scripts('cmake out', 'cm')).toContain(at('cm', 'CMakeLists.txt'));
  });

  it('-P, -C and a toolchain file are cmake code', () => {
    expect(scripts('cmake -P tools/fetch.cmake', 'cm')).toEqual([at('cm', 'tools', 'fetch.cmake')]);
    expect(scripts('cmake -B out -DCMAKE_TOOLCHAIN_FILE=cross.cmake', 'cm')).toContain(
      at('cm', 'cross.cmake'),
    );
  });

  it('building what configure generated reads no CMakeLists.txt here', () => {
    expect(scripts('cmake --build out -j8', 'cm')).toEqual([]);
    expect(scripts('cmake -S . -B out', 'bare')).toEqual([]);
  });
});

describe("cargo runs its manifest's build scripts and its config's runner", () => {
  it('the build key, path dependencies, workspace members and .cargo/config.toml', () => {
    const listed = scripts('cargo +nightly build --release', 'crate');
    for (const file of [
      'Cargo.toml',
      'codegen.rs',
      'helper/Cargo.toml',
      'helper/build.rs',
      'sys/build.rs',
      'members/one/build.rs',
      '.cargo/config.toml',
    ])
      expect(listed).toContain(at('crate', file));
  });

  it('from below the manifest, and by --manifest-path', () => {
    expect(scripts('cargo test', 'crate/src')).toContain(at('crate', 'helper', 'build.rs'));
    expect(scripts('cargo run --manifest-path crate/Cargo.toml')).toContain(at('crate', 'codegen.rs'));
  });

  it('a command that compiles nothing lists only the config', () => {
    expect(scripts('cargo fmt', 'crate')).toEqual([at('crate', '.cargo', 'config.toml')]);
    expect(scripts('cargo build', 'bare')).toEqual([]);
  });

  it('reads the TOML subset cargo manifests use', () => {
    expect(readManifest('[package]\nbuild = false\n').build).toBe(false);
    expect(readManifest("[dependencies.x]\npath = '../x'\n").paths).toEqual(['../x']);
    expect(readManifest('[workspace]\nmembers = ["a", "b/*"]\n').members).toEqual(['a', 'b/*']);
  });
});

describe('JS tools load their configs: found by name, or named by an option', () => {
  it('gulp, prettier rc data, lint-staged, babel, mocha, postcss through vite', () => {
    expect(scripts('npx gulp build', 'web')).toContain(at('web', 'gulpfile.mjs'));
    expect(scripts('prettier --check .', 'web')).toContain(at('web', '.prettierrc'));
    expect(scripts('npx lint-staged', 'web')).toContain(at('web', '.lintstagedrc.json'));
    expect(scripts('babel src -d lib', 'web')).toContain(at('web', 'babel.config.json'));
    expect(scripts('jest', 'web')).toContain(at('web', 'babel.config.json'));
    expect(scripts('mocha', 'web')).toContain(at('web', '.mocharc.yml'));
    expect(scripts('vite build', 'web')).toContain(at('web', 'postcss.config.cjs'));
  });

  it('--config FILE, --config=FILE and -c where -c means config', () => {
    expect(scripts('eslint -c lint/strict.cjs .', 'web')).toContain(at('web', 'lint', 'strict.cjs'));
    expect(scripts('eslint --config=lint/strict.cjs .', 'web')).toContain(at('web', 'lint', 'strict.cjs'));
    expect(scripts('rollup -c lint/strict.cjs', 'web')).toContain(at('web', 'lint', 'strict.cjs'));
    // prettier's -c is --check: the word after it is a file to check.
    expect(scripts('prettier -c lint/strict.cjs', 'web')).not.toContain(at('web', 'lint', 'strict.cjs'));
    expect(scripts('eslint .', 'bare')).toEqual([]);
  });
});

describe('compose files, Maven and Gradle build files', () => {
  it('compose up|run|build reads the compose file and -f FILE; ps and exec do not', () => {
    expect(scripts('docker compose up -d', 'stack')).toContain(at('stack', 'compose.yaml'));
    expect(scripts('docker-compose -f ci.compose.yml run app', 'stack')).toContain(
      at('stack', 'ci.compose.yml'),
    );
    expect(scripts('docker compose ps', 'stack')).toEqual([]);
    expect(scripts('docker ps', 'stack')).toEqual([]);
  });

  it('mvn reads pom.xml and .mvn/jvm.config; gradle its build, settings and -I init scripts', () => {
    expect(scripts('mvn -q package', 'jvm')).toEqual(
      expect.arrayContaining([at('jvm', 'pom.xml'), at('jvm', '.mvn', 'jvm.config')]),
    );
    expect(scripts('gradle build -I ci/init.gradle', 'jvm')).toEqual(
      expect.arrayContaining([
        at('jvm', 'build.gradle.kts'),
        at('jvm', 'settings.gradle'),
        at('jvm', 'ci', 'init.gradle'),
      ]),
    );
    expect(scripts('mvn --version', 'jvm')).toEqual([]);
    expect(scripts('gradle build', 'bare')).toEqual([]);
  });
});

describe("task runners and builds whose tasks are the project's own files", () => {
  it('deno, composer, poe, pdm, hatch, invoke, mix, earthly and mise read theirs', () => {
    expect(scripts('deno task x', 'tasks')).toContain(at('tasks', 'deno.jsonc'));
    expect(scripts('composer test', 'tasks')).toContain(at('tasks', 'composer.json'));
    for (const command of ['poe x', 'pdm run x', 'hatch run x'])
      expect(scripts(command, 'tasks'), command).toContain(at('tasks', 'pyproject.toml'));
    expect(scripts('invoke build', 'tasks')).toContain(at('tasks', 'tasks.py'));
    expect(scripts('mix test', 'tasks')).toContain(at('tasks', 'mix.exs'));
    expect(scripts('earthly +build', 'tasks')).toContain(at('tasks', 'Earthfile'));
    for (const command of ['mise run deploy', 'mise exec -- node -v', 'rtx run wipe'])
      expect(scripts(command, 'tasks'), command).toEqual(
        expect.arrayContaining([at('tasks', 'mise.toml'), at('tasks', '.mise', 'tasks', 'wipe')]),
      );
    expect(scripts('composer test', 'bare')).toEqual([]);
  });

  it('dotnet reads every project file where it runs; sbt its build and project/*.scala', () => {
    const net = scripts('dotnet build', 'net');
    expect(net).toEqual(
      expect.arrayContaining([
        at('net', 'App.csproj'),
        at('net', 'Lib.fsproj'),
        at('net', 'Directory.Build.targets'),
      ]),
    );
    expect(net).not.toContain(at('net', 'notes.txt'));
    expect(scripts('sbt test', 'scala')).toEqual(
      expect.arrayContaining([at('scala', 'build.sbt'), at('scala', 'project', 'Deps.scala')]),
    );
  });
});

describe('an install runs the lifecycle scripts of the local packages it installs', () => {
  it('file: dependencies, workspaces and path operands', () => {
    const listed = scripts('npm install', 'mono');
    expect(listed).toContain(at('mono', 'util', 'package.json'));
    expect(listed).toContain(at('mono', 'packages', 'ui', 'package.json'));
    expect(scripts('pnpm add ./vendor/sdk', 'mono')).toEqual(
      expect.arrayContaining([
        at('mono', 'vendor', 'sdk', 'package.json'),
        at('mono', 'vendor', 'sdk', 'binding.gyp'),
      ]),
    );
    expect(scripts('yarn', 'mono')).toContain(at('mono', 'util', 'package.json'));
  });

  it('a command that installs nothing lists nothing; one that writes the file first is caught', () => {
    expect(scripts('npm ls', 'mono')).toEqual([]);
    expect(kinds(`echo '{}' > util/package.json && npm ci`, 'mono')).toContain('script_written_by_command');
  });
});

describe('test runners load the project’s code from the top of its repository', () => {
  const loads = (command: string, dir: string) =>
    parseShell(command, { context: { ...ctx, cwd: join(root, dir) } }).loads_code ?? [];

  it('names the language and the repository top, from a subdirectory too', () => {
    put('repo/.git/HEAD', 'ref: refs/heads/main\n');
    put('repo/tests/test_a.py', 'def test_a():\n    pass\n');
    const top = join(root, 'repo');
    expect(loads('pytest -q', 'repo')).toEqual([{ language: 'python', dir: top }]);
    expect(loads('python3 -m pytest tests', 'repo/tests')).toEqual([{ language: 'python', dir: top }]);
    expect(loads('npx vitest run', 'repo')).toEqual([{ language: 'node', dir: top }]);
    expect(loads('node --test', 'repo')).toEqual([{ language: 'node', dir: top }]);
    expect(loads('bun test', 'repo')).toEqual([{ language: 'node', dir: top }]);
  });

  it('a test file named outside the repository is loaded from where it lies', () => {
    put('elsewhere/t_evil.py', 'import os\n');
    put('elsewhere/dir/x.test.js', '');
    const top = join(root, 'repo');
    expect(loads(`pytest ${join(root, 'elsewhere', 't_evil.py')}`, 'repo')).toEqual([
      { language: 'python', dir: top },
      { language: 'python', dir: join(root, 'elsewhere') },
    ]);
    expect(loads('node --test ../elsewhere/dir', 'repo')).toEqual([
      { language: 'node', dir: top },
      { language: 'node', dir: join(root, 'elsewhere', 'dir') },
    ]);
    // Paths inside the repository, and words that name nothing, add nothing.
    expect(loads('pytest tests -k missing', 'repo')).toEqual([{ language: 'python', dir: top }]);
  });

  it('outside a repository, the directory it runs in; asked only its version, nothing', () => {
    expect(loads('jest', 'bare')).toEqual([{ language: 'node', dir: join(root, 'bare') }]);
    expect(loads('pytest --version', 'repo')).toEqual([]);
    expect(loads('bun install', 'repo')).toEqual([]);
    expect(loads('git status', 'repo')).toEqual([]);
  });
});

describe('go, cargo and ruby runners build and run the project’s code', () => {
  it('names their language at the repository top', () => {
    const top = join(root, 'repo');
    const loads = (command: string) =>
      parseShell(command, { context: { ...ctx, cwd: top } }).loads_code?.map((l) => l.language) ?? [];
    expect(loads('go test ./...')).toEqual(['go']);
    expect(loads('go run .')).toEqual(['go']);
    expect(loads('cargo +nightly build --release')).toEqual(['rust']);
    expect(loads('cargo test')).toEqual(['rust']);
    expect(loads('bundle exec rspec spec/x_spec.rb')).toEqual(['ruby']);
    expect(loads('tox -e py311')).toEqual(['python']);
    expect(loads('hatch run test')).toEqual(['python']);
    expect(loads('go version')).toEqual([]);
    expect(loads('cargo fmt')).toEqual([]);
  });
});
