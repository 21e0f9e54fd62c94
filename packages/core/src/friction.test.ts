// Friction: realistic sessions of ordinary development work in several ecosystems, each command
// classified through the shipped policy with a context (a scratch project holding the usual manifests
// and a git repository with a remote, a scratch home), must gate nothing. A false gate found here is
// fixed in a mechanism (option models, program tables, zones), never by listing the command.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFileView } from '@tollgate/shell';
import { describe, expect, it } from 'vitest';
import { classify } from './classify.js';
import { loadPolicy } from './policy/files.js';
import type { WriteScope } from './writes.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-friction-')));
const root = join(base, 'app');
const home = join(base, 'home');

function file(path: string, text: string, mode?: number): void {
  const full = join(root, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
  if (mode !== undefined) chmodSync(full, mode);
}

mkdirSync(root, { recursive: true });
mkdirSync(join(home, '.cache'), { recursive: true });
file(
  'package.json',
  JSON.stringify(
    {
      name: 'app',
      private: true,
      scripts: {
        build: 'tsc -p tsconfig.json',
        test: 'vitest run',
        lint: 'eslint . && prettier --check .',
        format: 'prettier --write .',
        typecheck: 'tsc --noEmit',
        dev: 'vite',
        start: 'node dist/index.js',
      },
    },
    null,
    2,
  ),
);
file('tsconfig.json', '{ "compilerOptions": { "strict": true, "outDir": "dist" } }\n');
file('src/index.ts', 'export const answer = 42;\n');
// What `npm run build` leaves behind, so `node dist/index.js` reads an existing file.
file('dist/index.js', 'export const answer = 42;\nconsole.log(answer);\n');
file(
  'Makefile',
  [
    '.PHONY: all build test lint fmt',
    'CFLAGS = -O2 -Wall',
    'all: build',
    'build:',
    '\t$(CC) $(CFLAGS) -o bin/tool src/main.c',
    'test: build',
    '\t./bin/tool --self-test',
    'lint:',
    '\tclang-tidy src/main.c',
    'fmt:',
    '\tclang-format -i src/main.c',
    '',
  ].join('\n'),
);
file('src/main.c', 'int main(void) { return 0; }\n');
file(
  'pyproject.toml',
  '[project]\nname = "app"\nversion = "0.1.0"\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
);
file('tests/test_app.py', 'def test_ok():\n    assert True\n');
file(
  '.venv/bin/activate',
  [
    'deactivate () {',
    '    if [ -n "$_OLD_VIRTUAL_PATH" ] ; then PATH="$_OLD_VIRTUAL_PATH"; export PATH; fi',
    '    unset VIRTUAL_ENV',
    '}',
    `VIRTUAL_ENV="${root}/.venv"`,
    'export VIRTUAL_ENV',
    '_OLD_VIRTUAL_PATH="$PATH"',
    'PATH="$VIRTUAL_ENV/bin:$PATH"',
    'export PATH',
    '',
  ].join('\n'),
);
file('Cargo.toml', '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n');
file('src/main.rs', 'fn main() {}\n');
file('go.mod', 'module example.com/app\n\ngo 1.22\n');
file('main.go', 'package main\n\nfunc main() {}\n');
file('build.gradle', "plugins { id 'java' }\nrepositories { mavenCentral() }\n");
file(
  'gradlew',
  '#!/bin/sh\nexec java -classpath gradle/wrapper/gradle-wrapper.jar org.gradle.wrapper.GradleWrapperMain "$@"\n',
  0o755,
);
file('pom.xml', '<project><modelVersion>4.0.0</modelVersion></project>\n');
file('Gemfile', "source 'https://rubygems.org'\ngem 'rake'\ngem 'rspec'\n");
file('Rakefile', 'task default: :spec\n');
file('.envrc', 'layout python3\n');
file('README.md', '# app\n');

const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
git('init', '-q', '-b', 'main');
git('config', 'user.email', 'dev@example.com');
git('config', 'user.name', 'Dev');
git('remote', 'add', 'origin', 'https://github.com/acme/app.git');
// The session works on a feature branch (it switches to one first): a push of HEAD pushes that
// branch, which the gate reads from the repository (on main it would be a push to main).
git('symbolic-ref', 'HEAD', 'refs/heads/feature/login');

const project = {
  root,
  home,
  gate: [join(root, 'tollgate.config.yaml'), join(home, '.local/state/tollgate')],
};
const scope: WriteScope = { project, context: { cwd: root, home, files: nodeFileView() } };
const policy = loadPolicy(['builtin:files', 'builtin:shell', 'builtin:mcp']);

/** Sessions as an agent runs them, one command per tool call. */
const SESSIONS: Record<string, string[]> = {
  git: [
    'git status',
    'git status --short',
    'git diff',
    'git diff --stat HEAD~1',
    'git log --oneline -20',
    'git log --graph --decorate --all -n 30',
    'git branch -a',
    'git switch -c feature/login',
    'git checkout -b fix/typo',
    'git add src/index.ts',
    'git add -A',
    'git commit -m "feat: add login form"',
    'git commit -am "fix: typo"',
    'git fetch origin',
    'git fetch --all --prune',
    'git pull --rebase origin main',
    'git rebase origin/main',
    'git push -u origin feature/login',
    'git push origin HEAD',
    'git stash',
    'git stash list',
    'git stash pop',
    'git show HEAD --stat',
    'git blame src/index.ts',
    'git remote -v',
    'git rev-parse --abbrev-ref HEAD',
    'git merge --no-ff feature/login',
    'git tag -a v0.1.0 -m "release 0.1.0"',
    'git cherry-pick abc1234',
    'git push --set-upstream origin feature/login',
    'git commit --amend --no-edit',
    'git restore --staged src/index.ts',
    'git reset HEAD~1',
    'git reset --soft HEAD~1',
    'git clean -n',
    'git branch -d fix/typo',
    'git diff --cached | cat',
    "git log --format='%h %s' | head -5",
    'git diff > /tmp/change.patch',
    'git fetch origin main',
    'git worktree list',
    'git mv src/old.ts src/renamed.ts',
    'git rm --cached .env',
    'git stash push -m wip',
    'git log -p -1',
    'git push origin feature/login:feature/login',
  ],
  node: [
    'npm install',
    'npm ci',
    'npm install --save-dev vitest',
    'npm test',
    'npm run build',
    'npm run lint',
    'npm run typecheck',
    'npm test -- --watch=false',
    'npx vitest run src',
    'npx tsc --noEmit',
    'npx eslint . --fix',
    'npx prettier --write src',
    'pnpm install',
    'pnpm test',
    'pnpm run build',
    'yarn install --frozen-lockfile',
    'yarn test',
    'node dist/index.js',
    'npm ls --depth=0',
    'npm outdated',
    'npm run test -- --coverage',
    'npx playwright test',
    'npx jest --coverage',
    'NODE_ENV=production npm run build',
    'export NODE_ENV=test && npm test',
    'cat package.json | jq .scripts',
    'node --version && npm --version',
    'npm run format',
    'npm version patch --no-git-tag-version',
    'npx tsc -b',
  ],
  python: [
    'python3 -m venv .venv',
    'source .venv/bin/activate',
    '. .venv/bin/activate && pip install -e .',
    'pip install -r requirements.txt',
    'pip install pytest ruff black mypy',
    'python -m pip install --upgrade pip',
    'pytest',
    'pytest -x -q tests/test_app.py',
    'python -m pytest -k login -vv',
    'ruff check .',
    'ruff check --fix src',
    'ruff format .',
    'black .',
    'black --check src tests',
    'mypy src',
    'python3 -m mypy --strict src',
    'pip freeze > requirements.lock',
    'python3 -c "import sys; print(sys.version)"',
    'poetry install',
    'poetry run pytest',
    'uv sync',
    'uv run pytest -q',
    'tox -e py311',
    'pre-commit run --all-files',
    'pip install -U pip setuptools wheel',
    'python -m http.server 8000 --directory dist',
    'python -m build',
    'pip install -e ".[dev]"',
    'pytest --cov=src --cov-report=term-missing',
  ],
  rust: [
    'cargo build',
    'cargo build --release',
    'cargo test',
    'cargo test -- --nocapture',
    'cargo clippy --all-targets -- -D warnings',
    'cargo fmt',
    'cargo fmt --check',
    'cargo run -- --help',
    'cargo check',
    'cargo add serde --features derive',
    'cargo doc --no-deps',
    'cargo bench',
    'cargo update',
    'cargo test --workspace',
  ],
  go: [
    'go build ./...',
    'go test ./...',
    'go test -race -run TestLogin ./...',
    'go vet ./...',
    'gofmt -l .',
    'gofmt -w main.go',
    'go mod tidy',
    'go run .',
    'go generate ./...',
    'go get example.com/lib@latest',
    'golangci-lint run',
    'go test -cover ./...',
  ],
  java: [
    './gradlew build',
    './gradlew test --info',
    'gradle assemble',
    './gradlew clean build',
    'mvn -q test',
    'mvn package -DskipTests',
    'mvn clean install',
    'mvn -B verify',
    './gradlew :app:test',
  ],
  ruby: [
    'bundle install',
    'bundle exec rake',
    'bundle exec rspec',
    'rake test',
    'rspec spec/models',
    'bundle exec rubocop -a',
  ],
  c: [
    'make',
    'make test',
    'make -j4 build',
    'make lint',
    'make fmt',
    'cc -o bin/tool src/main.c',
    'cmake -S . -B build && cmake --build build',
    'ctest --test-dir build',
  ],
  shell: [
    'eval "$(direnv hook bash)"',
    'eval "$(pyenv init -)"',
    'direnv allow',
    'ls -la',
    'cat README.md',
    'grep -rn "TODO" src',
    'rg answer src',
    'find . -name "*.ts" -not -path "./node_modules/*"',
    'mkdir -p build/out',
    'touch src/new.ts',
    'cp src/index.ts src/index.bak.ts',
    'mv src/index.bak.ts src/old.ts',
    'echo "node_modules" >> .gitignore',
    "cat > src/config.ts <<'EOF'\nexport const port = 3000;\nEOF",
    'sed -i "s/42/43/" src/index.ts',
    'wc -l src/*.ts',
    'curl -fsSL https://registry.npmjs.org/vitest -o /tmp/vitest.json',
    'curl -s http://localhost:3000/health',
    'curl -X POST http://localhost:3000/api/login -H "Content-Type: application/json" -d \'{"user":"a"}\'',
    'gh pr view',
    'gh pr checks',
    'gh issue list --label bug',
    'docker build -t app .',
    'docker compose up -d',
    'tar -czf /tmp/app.tgz src',
    'cd src && ls',
    'pushd src && popd',
    'echo $PATH',
    'which node',
    'env | grep NODE',
    'tree -L 2',
    'rm dist/index.js',
    'docker ps',
    'docker run --rm app npm test',
    'kubectl get pods',
    "curl -s https://api.github.com/repos/acme/app/pulls | jq '.[].title'",
    'wget -q https://example.com/data.csv -O data/sample.csv',
    'ssh-keygen -lf ~/.ssh/id_ed25519.pub',
  ],
};

describe('friction: ordinary development sessions gate nothing', () => {
  const commands = Object.entries(SESSIONS).flatMap(([session, list]) =>
    list.map((command) => [session, command] as const),
  );

  it.each(commands)('%s: %s', (_session, command) => {
    const result = classify(policy, { tool: 'shell', args: { command } }, undefined, scope);
    expect({ command, class: result.class, rules: result.gating.map((g) => g.rule.id) }).toEqual({
      command,
      class: expect.stringMatching(/^(unmatched|read-only)$/),
      rules: [],
    });
  });

  it('counts the commands and the gated ones', () => {
    const gated = commands.filter(
      ([, command]) =>
        classify(policy, { tool: 'shell', args: { command } }, undefined, scope).gating.length > 0,
    );
    console.log(
      `friction: ${gated.length} gated of ${commands.length} commands in ${Object.keys(SESSIONS).length} sessions`,
    );
    expect(gated.length).toBe(0);
  });
});
