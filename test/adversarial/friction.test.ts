// The other side of every attack test: an ordinary coding session through the same hook meets no
// refusal at all — reading, building, testing, editing project files, committing, pushing a feature
// branch. A gate that refuses ordinary work gets switched off by its users.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Host } from './host.js';

let host: Host;
beforeAll(() => {
  host = new Host();
  mkdirSync(join(host.work, 'src'), { recursive: true });
  writeFileSync(join(host.work, 'src', 'index.js'), 'export const answer = 41;\n');
  writeFileSync(
    join(host.work, 'package.json'),
    JSON.stringify({
      name: 'p',
      version: '1.0.0',
      type: 'module',
      scripts: { test: 'node --test', build: 'node -e 0' },
    }),
  );
  writeFileSync(join(host.work, 'Makefile'), 'build:\n\tnode -e 0\n');
});
afterAll(() => host.close());

describe('an ordinary session meets zero refusals', () => {
  it('reads, builds, tests, edits, commits and pushes a feature branch', async () => {
    const commands = [
      'git status',
      'git status --short --branch',
      'git log --oneline -5',
      'git diff',
      'ls -la',
      'ls src',
      'cat package.json',
      'grep -rn answer src',
      'find src -name "*.js"',
      'head -5 README.md',
      'wc -l src/index.js',
      'pwd',
      'node --version',
      'npm --version',
      'npm run build',
      'make build',
      'node -e "console.log(1+1)"',
      'echo building > build.log',
      'mkdir -p dist && cp src/index.js dist/',
      'ls dist 2>/dev/null | head',
      'npm test 2>&1 | tail -5 || true',
      'git checkout -b feature/answer',
      'git add src/index.js',
      'git commit -m "answer is 42" -q',
      'git push -u origin feature/answer',
      'git push origin feature/answer',
      'git push origin "$(git branch --show-current)"',
      'git commit --allow-empty -qm "more" && git push',
      'git checkout -b feature/two && git commit --allow-empty -qm two && git push -u origin HEAD',
      'git fetch origin',
      'git log origin/feature/answer --oneline -1',
      'echo "tmp" > /tmp/tollgate-friction-$$.txt && rm -f /tmp/tollgate-friction-$$.txt',
      'git stash list',
      'git branch -a',
      'cd src && ls',
      // The agent's own edit idiom when the Edit tool will not do: python rewrites a project file.
      "python3 - <<'PY'\np = 'src/index.js'\ns = open(p).read()\nopen(p, 'w').write(s.replace('answer', 'answer'))\nPY",
      'while read -r f; do echo "$f"; done < package.json',
      'tmp=$(mktemp -d) && cp -r src "$tmp" && ls "$tmp"; rm -rf "$tmp"',
      'tmp=$(mktemp -d) && cp src/*.js "$tmp"/ && ls "$tmp/" && rm -rf "$tmp"',
      'git log --oneline | while read -r line; do echo "$line"; done',
    ];
    const refused: string[] = [];
    const edit = await host.edit('Edit', {
      file_path: join(host.work, 'src', 'index.js'),
      old_string: '41',
      new_string: '42',
    });
    if (edit.denied) refused.push(`Edit: ${edit.reason}`);
    const write = await host.edit('Write', {
      file_path: join(host.work, 'src', 'util.js'),
      content: 'export const two = 2;\n',
    });
    if (write.denied) refused.push(`Write: ${write.reason}`);
    const read = await host.read(join(host.work, 'README.md'));
    if (read.denied) refused.push('Read');
    for (const command of commands) {
      const step = await host.bash(command);
      if (step.denied) refused.push(`${command}: ${step.reason.slice(0, 200)}`);
    }
    expect(refused).toEqual([]);
  });
});
