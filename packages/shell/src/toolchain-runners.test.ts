// Toolchain subcommands that run code: inline code is unknown, the files they run are listed among
// the command's scripts, and the programs they start are judged as typed; building and testing pass.
import { describe, expect, it } from 'vitest';
import { parseShell } from './index.js';

const kinds = (command: string) => parseShell(command).dynamic.map((d) => d.kind);
/** A file view of an empty machine: paths resolve, nothing exists. */
const emptyView = { readdir: () => undefined, realpath: () => undefined, readText: () => undefined };
const scripts = (command: string) =>
  parseShell(command, { context: { cwd: '/w', files: emptyView } }).scripts;
const programs = (command: string) => parseShell(command).segments.map((s) => s.program);

describe('inline code a toolchain runs', () => {
  it.each([
    'mix run -e \'File.rm_rf!("/srv")\'',
    'mix run --no-compile --eval x',
    "stack eval 'x'",
    "stack --resolver lts-22 eval 'x'",
    "crystal eval 'x'",
    "stack ghc -- -e 'x'",
    "stack ghci -- -e 'x'",
    "cabal repl -e 'x'",
    "ghci -e 'x'",
    "raku -ne 'x'",
    "kotlin -e 'x'",
    "kotlinc -expression 'x'",
    'echo x | crystal eval',
    "go run -exec 'rm -rf ~' .",
    'mix do run -e \'File.rm_rf!("/home")\'',
    "stack --verbosity silent eval 'x'",
    'nim --eval:\'exec "rm -rf ~"\'',
    'crystal i <<< \'system("rm -rf ~")\'',
  ])('%s is unknown', (command) => {
    expect(kinds(command).some((k) => /interpreter_(code|stdin)/.test(k))).toBe(true);
  });

  it.each([
    'mix test',
    'mix compile --warnings-as-errors',
    'mix run',
    'echo 5 | mix run',
    'stack build --fast',
    'stack test',
    'cabal build all',
    'crystal build src/app.cr',
    'crystal spec',
    'go build ./...',
    'go test -run TestX ./...',
    'go run .',
    'kotlinc src/Main.kt -d out.jar',
    'swift build',
    'swift test --filter AppTests',
    'dotnet test',
    'zig build test',
    'nim c -d:release src/app.nim',
    'mix do compile, test',
    'mix do deps.get + compile',
    'stack --verbosity silent build',
    'mix cmd echo hi',
  ])('%s passes', (command) => {
    expect(kinds(command)).toEqual([]);
  });
});

describe('the files a toolchain runs', () => {
  it('are listed, so one the session wrote is refused', () => {
    expect(scripts('mix run priv/repo/seeds.exs')).toEqual(['/w/priv/repo/seeds.exs']);
    expect(scripts('mix run -r lib/x.ex')).toEqual(['/w/lib/x.ex']);
    expect(scripts('go run ./tools/gen.go')).toEqual(['/w/tools/gen.go']);
    expect(scripts('stack runghc Setup.hs')).toEqual(['/w/Setup.hs']);
    expect(scripts('crystal run src/x.cr')).toEqual(['/w/src/x.cr']);
    expect(scripts('nim e build.nims')).toEqual(['/w/build.nims']);
    expect(scripts('dotnet script deploy.csx')).toEqual(['/w/deploy.csx']);
    expect(scripts('kotlinc -script build.main.kts')).toEqual(['/w/build.main.kts']);
  });

  it('written by the same command: a script written, then run', () => {
    expect(kinds('printf \'File.rm_rf!("x")\' > s.exs && mix run s.exs')).toContain(
      'script_written_by_command',
    );
    expect(kinds('cat > m.go <<EOF\npackage main\nEOF\ngo run m.go')).toContain('script_written_by_command');
  });
});

describe('commands a toolchain starts', () => {
  it('stack exec and cabal exec run the command that follows, `--` being the runner’s', () => {
    for (const command of [
      'stack exec -- rm -rf /srv',
      'stack exec rm -- -rf /srv',
      'cabal exec -- rm -rf /srv',
    ]) {
      const rm = parseShell(command).segments.find((s) => s.program === 'rm');
      expect(rm?.flags).toEqual(expect.arrayContaining(['-r', '-f']));
    }
  });

  it('mix cmd runs its words as a command', () => {
    expect(parseShell('mix cmd rm -rf /srv').segments.find((s) => s.program === 'rm')?.flags).toEqual(
      expect.arrayContaining(['-r', '-f']),
    );
  });

  it('stack ghci is ghci', () => {
    expect(programs('stack ghci')).toContain('ghci');
  });
});

describe("web frameworks' consoles run the application's code", () => {
  it.each([
    'rails runner "system(%q(rm -rf ~))"',
    'bundle exec rails runner \'ActiveRecord::Base.connection.execute("TRUNCATE widgets")\'',
    'bin/rails r script/cleanup.rb',
    'echo "Widget.delete_all" | bundle exec rails console',
    'django-admin shell --settings=site.settings -c "Post.objects.all().delete()"',
    'python manage.py shell -c "Post.objects.all().delete()"',
    'echo "Post.objects.all().delete()" | python3 manage.py shell',
    './manage.py shell --command "x"',
    "echo 'db.drop_all()' | flask shell",
  ])('%s', (command) => {
    expect(kinds(command).some((k) => k === 'interpreter_code' || k === 'interpreter_stdin')).toBe(true);
  });

  it.each([
    'rails routes',
    'bundle exec rails db:migrate',
    'rails generate model Gadget name:string',
    'django-admin check',
    'python manage.py test blog',
    'python manage.py runserver',
    'flask run',
  ])('%s passes', (command) => {
    expect(kinds(command)).toEqual([]);
  });
});

describe('syntax checks run nothing', () => {
  it.each([
    'node --check server.js',
    'node -c server.js',
    'ruby -c app/models/widget.rb',
    'ruby -wc x.rb',
    'php -l index.php',
  ])('%s passes, even of code that would act', (command) => {
    expect(kinds(command)).toEqual([]);
    expect(
      kinds(`${command.split(' ').slice(0, -1).join(' ')} -e 'x'`.replace('php -l -e', 'php -l -r')),
    ).toEqual([]);
  });

  // perl -c runs BEGIN blocks; ruby's -c after a value-taking letter is that letter's value.
  it.each(["perl -c -e 'BEGIN { system 1 }'", "ruby -Ic -e 'system(1)'"])(
    '%s is no syntax check',
    (command) => {
      expect(kinds(command)).toContain('interpreter_code');
    },
  );
});
