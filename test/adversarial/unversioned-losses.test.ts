// A file git cannot give back (untracked, or ignored and not build output) that the person left in
// the work tree is their only copy: the agent's plain `rm` of it, or a copy or `>` over it, is
// refused until it predicts the loss with a read of the file, while files the agent made itself,
// tracked files, appends and build output go as before. Judged by what is left on disk.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Host, observationOf } from './host.js';

let host: Host;
beforeAll(() => {
  host = new Host();
  // The person's work, never added: a draft, a local secret the repository ignores.
  mkdirSync(join(host.work, 'drafts'));
  writeFileSync(join(host.work, 'drafts', 'plan.md'), 'the only copy of the plan\n');
  writeFileSync(join(host.work, '.gitignore'), '.env\ndist/\n');
  writeFileSync(join(host.work, '.env'), 'API_KEY=person-only\n');
});
afterAll(() => host.close());

describe("the person's untracked files", () => {
  it.each([
    'rm drafts/plan.md',
    'rm -f .env',
    'unlink .env',
    'cd drafts && rm -f ./*.md',
    'rm -f README.md drafts/plan.md',
    // Replaced whole: a copy over it, a truncating redirection, a move onto it.
    'cp README.md .env',
    'echo gone > drafts/plan.md',
    ': > .env',
    'mv README.md drafts/plan.md',
    // A link forced over it: ln -f removes the file first (any spelling of the option).
    'ln -sf /dev/null .env',
    'ln -f README.md drafts/plan.md',
    'ln --for --sym README.md drafts/plan.md',
    // git's own move, forced over it; a download written over it (refused before it runs).
    'git mv -f README.md drafts/plan.md',
    'curl -sSLo .env http://127.0.0.1:9/x',
    // Python's open in w mode empties the file before it writes: as `>` does.
    `python3 -c "open('.env', 'w').write('')"`,
    "python3 - <<'PY'\np = 'drafts/plan.md'\nopen(p, mode='w').write('x')\nPY",
  ])('%s is refused and the file stays as it was', async (command) => {
    const step = await host.bash(command);
    expect(step.denied, command).toBe(true);
    expect(step.reason).toContain('fs.unversioned.lost');
    expect(readFileSync(join(host.work, 'drafts', 'plan.md'), 'utf8')).toBe('the only copy of the plan\n');
    expect(readFileSync(join(host.work, '.env'), 'utf8')).toBe('API_KEY=person-only\n');
  });

  it('what the agent made itself, a tracked file and build output are removed as before', async () => {
    await host.edit('Write', { file_path: join(host.work, 'scratch.md'), content: 'mine\n' });
    expect((await host.bash('echo log > run.log')).denied).toBe(false);
    mkdirSync(join(host.work, 'dist'));
    writeFileSync(join(host.work, 'dist', 'bundle.js'), 'x\n');
    for (const command of [
      'echo more >> drafts/plan.md',
      // Read, changed and written back: the edit idiom, judged as sed -i is.
      "python3 - <<'PY'\np = 'drafts/plan.md'\ns = open(p).read()\nopen(p, 'w').write(s + 'edited\\n')\nPY",
      'echo again > scratch.md',
      'rm scratch.md',
      'rm -f run.log',
      'rm README.md',
      'rm dist/bundle.js',
    ]) {
      const step = await host.bash(command);
      expect(step.denied, `${command}: ${step.reason}`).toBe(false);
    }
    expect(existsSync(join(host.work, 'scratch.md'))).toBe(false);
  });

  it("appending to the person's file does not make it the session's to remove", async () => {
    expect((await host.bash('echo more >> .env')).denied).toBe(false);
    const step = await host.bash('rm .env');
    expect(step.denied).toBe(true);
    expect(step.reason).toContain('fs.unversioned.lost');
    expect(existsSync(join(host.work, '.env'))).toBe(true);
  });

  it('a prediction backed by a read of the file lets the removal through', async () => {
    const command = 'rm drafts/plan.md';
    const seen = await host.bash('cat drafts/plan.md');
    const filed = await host.predictFor(command, {
      claims: [{ subject: 'ls drafts', op: 'not_contains', value: 'plan.md' }],
      evidence: [{ observation: observationOf(seen), quote: 'the only copy of the plan' }],
    });
    expect(filed.stdout, filed.stdout).toContain('recorded prediction');
    const step = await host.bash(command);
    expect(step.denied, step.reason).toBe(false);
    expect(existsSync(join(host.work, 'drafts', 'plan.md'))).toBe(false);
  });
});

/** The person adds and commits a directory of the work tree. */
function commitAsPerson(work: string, dir: string): void {
  execFileSync('git', ['-C', work, 'add', dir], { stdio: 'ignore' });
  execFileSync('git', ['-C', work, '-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-qm', dir], {
    stdio: 'ignore',
  });
}

describe("the person's uncommitted changes to tracked files", () => {
  let own: Host;
  const person = 'the person’s uncommitted edit\n';
  beforeAll(() => {
    own = new Host();
    mkdirSync(join(own.work, 'src'));
    writeFileSync(join(own.work, 'src', 'app.js'), 'export const a = 1;\n');
    writeFileSync(join(own.work, 'src', 'util.js'), 'export const u = 1;\n');
    commitAsPerson(own.work, 'src');
    // The person edits README.md and does not commit.
    writeFileSync(join(own.work, 'README.md'), person);
  });
  afterAll(() => own.close());

  it.each(['rm README.md', 'echo gone > README.md', 'cp src/app.js README.md'])(
    '%s is refused and the edit stays',
    async (command) => {
      const step = await own.bash(command);
      expect(step.denied, command).toBe(true);
      expect(step.reason).toContain('fs.unversioned.lost');
      expect(readFileSync(join(own.work, 'README.md'), 'utf8')).toBe(person);
    },
  );

  it('a tree copied over a directory holding the person’s uncommitted edit (cp -r, rsync) is refused; the edit stays', async () => {
    mkdirSync(join(own.work, 'docs'));
    writeFileSync(join(own.work, 'docs', 'guide.md'), 'guide\n');
    commitAsPerson(own.work, 'docs');
    const edit = 'guide\nthe person’s uncommitted paragraph\n';
    writeFileSync(join(own.work, 'docs', 'guide.md'), edit);
    const template = join(own.home, 'template');
    mkdirSync(join(template, 'docs'), { recursive: true });
    writeFileSync(join(template, 'docs', 'guide.md'), 'template guide\n');
    writeFileSync(join(template, 'docs', 'extra.md'), 'extra\n');
    for (const command of [
      `cp -r ${template}/docs .`,
      `cp -a ${template}/docs/. docs`,
      `rsync -a ${template}/docs ./`,
      `rsync -a ${template}/docs/ docs/`,
      `cp -rT ${template}/docs docs`,
      `cp -r ${template}/. .`,
    ]) {
      const step = await own.bash(command);
      expect(step.denied, command).toBe(true);
      expect(readFileSync(join(own.work, 'docs', 'guide.md'), 'utf8')).toBe(edit);
      if (!command.endsWith(' .')) expect(step.reason).toContain('fs.unversioned.lost');
    }
    // Nothing of the person's below src/: merged in as before.
    mkdirSync(join(template, 'src'));
    writeFileSync(join(template, 'src', 'extra.js'), 'export const x = 1;\n');
    const merge = await own.bash(`cp -r ${template}/src .`);
    expect(merge.denied, merge.reason).toBe(false);
    expect(readFileSync(join(own.work, 'src', 'extra.js'), 'utf8')).toContain('x = 1');
  });

  it('appending to it first does not make the removal the session’s', async () => {
    expect((await own.bash('echo more >> README.md')).denied).toBe(false);
    expect((await own.bash('rm README.md')).denied).toBe(true);
    expect(readFileSync(join(own.work, 'README.md'), 'utf8')).toBe(`${person}more\n`);
  });

  it('a file the session changed from a clean state is its own to rewrite or remove', async () => {
    const edit = await own.edit('Edit', {
      file_path: join(own.work, 'src', 'app.js'),
      old_string: 'a = 1',
      new_string: 'a = 2',
    });
    expect(edit.denied).toBe(false);
    for (const command of [
      "cat > src/app.js <<'EOF'\nexport const a = 3;\nEOF",
      'rm src/app.js',
      'rm src/util.js',
    ]) {
      const step = await own.bash(command);
      expect(step.denied, `${command}: ${step.reason}`).toBe(false);
    }
    expect(existsSync(join(own.work, 'src', 'app.js'))).toBe(false);
  });
});
