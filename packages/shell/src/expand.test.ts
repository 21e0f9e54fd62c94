// How words expand where the shell's reading is subtle: field splitting of an expansion inside a
// longer word, IFS assigned where the walk cannot place it, echo's escapes, $'…' ending at a NUL,
// printf formats, `{NAME}>file` assigning NAME, and glob bracket classes.
import { describe, expect, it } from 'vitest';
import { segmentRegExp, UnknownBracket } from './glob.js';
import { parseShell } from './index.js';

const first = (command: string) => parseShell(command).segments.at(-1);
const kinds = (command: string) => parseShell(command).dynamic.map((d) => d.kind);

describe('field splitting', () => {
  it('splits an unquoted substitution inside a longer word, joining the text around it', () => {
    expect(first("r$(echo 'm -rf') src")).toMatchObject({ program: 'rm', args: ['-rf', 'src'] });
    expect(first("echo a$(echo ' b c ')d")).toMatchObject({ args: ['a', 'b', 'c', 'd'] });
    expect(first("sh -c 'r$1 build' _ 'm -rf'")).toMatchObject({ program: 'rm', args: ['-rf', 'build'] });
  });

  it('keeps a quoted substitution in a longer word whole', () => {
    expect(first('echo "a$(echo b c)d"')).toMatchObject({ args: ['ab cd'] });
    expect(first('ls src/$(echo x).ts')).toMatchObject({ args: ['src/x.ts'], unresolved: false });
  });

  it.each([
    'false && IFS=; $(echo rm -rf build)',
    'if false; then IFS=; fi; $(echo rm -rf build)',
    'f() { IFS=; }; f; $(echo rm -rf build)',
    "sh -c 'export IFS=/; $1' _ 'rm/-rf/build'",
    '(IFS=/); $(echo rm/-rf/build)',
  ])('once IFS is assigned where the walk cannot place it, splitting is unknown: %s', (command) => {
    expect(first(command)?.unresolved).toBe(true);
  });

  it.each([
    "sh -c 'IFS+=/; $1' _ 'rm/-rf/build'",
    'IFS+=X; for x in rmX-rfXbuild; do $x; done',
    "bash -c 'IFS=,; $*' _ 'rm,-rf,build'",
  ])('IFS set for sure in this shell splits as set: %s', (command) => {
    expect(parseShell(command).segments.find((s) => s.program === 'rm')?.args).toEqual(['-rf', 'build']);
  });
});

describe('static output of echo and printf', () => {
  it('reads no echo output with a backslash (an escape under -e, in dash and zsh)', () => {
    expect(first("$(echo -e 'r\\x6d') -rf build")?.unresolved).toBe(true);
    expect(first("$(echo 'r\\0155') -rf build")?.unresolved).toBe(true);
    expect(first('$(echo rm) -rf build')).toMatchObject({ program: 'rm', unresolved: false });
  });

  it('reads %% as a percent sign, not a slot (the format printed once, no endless loop)', () => {
    expect(first('echo $(printf %%s a)')).toMatchObject({ args: ['%s'] });
    expect(first('x=$(printf %%s%s a b); rm -rf build')).toMatchObject({ program: 'rm' });
  });
});

describe('static output of dirname and basename', () => {
  it.each([
    ['echo $(dirname scripts/run.sh)', 'scripts'],
    ['echo $(dirname ./scripts/run.sh/)', './scripts'],
    ['echo $(dirname run.sh)', '.'],
    ['echo $(dirname /run.sh)', '/'],
    ['echo $(dirname //)', '/'],
    ['echo $(dirname a//b//)', 'a'],
    ['echo $(basename src/app.test.ts .ts)', 'app.test'],
    ['echo $(basename src/lib/)', 'lib'],
    ['echo $(basename .ts .ts)', '.ts'],
  ])('%s prints %s', (command, printed) => {
    expect(first(command)).toMatchObject({ args: [printed], unresolved: false });
  });

  it('reads a script beside the one running, through $0', () => {
    // `sh FILE`: $0 is FILE, so the library is found where the script is.
    expect(first('sh -c \'. "$(dirname "$0")/lib.sh"\' scripts/run.sh')).toMatchObject({
      program: '.',
      args: ['scripts/lib.sh'],
    });
  });

  it('reads nothing with options or unknown words', () => {
    expect(first('echo $(dirname -z a/b)')?.unresolved).toBe(true);
    expect(first('echo $(basename -a a/b c/d)')?.unresolved).toBe(true);
    expect(first('echo $(dirname "$X")')?.unresolved).toBe(true);
  });
});

describe("$'…'", () => {
  it('ends at a NUL, as bash passes it', () => {
    expect(first("git reset $'--hard\\0x'")).toMatchObject({ args: ['reset', '--hard'] });
    expect(first("git reset $'--hard\\c@'")).toMatchObject({ args: ['reset', '--hard'] });
    expect(first("git reset $'--ha\\x00x'rd")).toMatchObject({ args: ['reset', '--hard'] });
  });
});

describe('{NAME}>file', () => {
  it('assigns NAME a descriptor number: a steering name is dynamic', () => {
    expect(kinds('exec {TMPDIR}>/dev/null; rm -rf "$TMPDIR"/src')).toContain('dynamic_name');
    expect(kinds('exec {fd}>out.log; echo hi >&$fd')).not.toContain('dynamic_name');
  });
});

describe('glob brackets', () => {
  it('reads every POSIX class and one-character collating and equivalence forms', () => {
    expect(segmentRegExp('[[:graph:]]rf').test('-rf')).toBe(true);
    expect(segmentRegExp('[[:print:]]x').test(' x')).toBe(true);
    expect(segmentRegExp('[[:cntrl:]]x').test('\tx')).toBe(true);
    expect(segmentRegExp('[[.-.]]rf').test('-rf')).toBe(true);
    expect(segmentRegExp('[[=-=]]rf').test('-rf')).toBe(true);
  });

  it('refuses a form it cannot read, so the expansion is unknown', () => {
    expect(() => segmentRegExp('[[:nosuch:]]rf')).toThrow(UnknownBracket);
    expect(() => segmentRegExp('[[.hyphen.]]rf')).toThrow(UnknownBracket);
  });
});

describe('functions', () => {
  it('bind the call’s words to $1, $2, … in their body', () => {
    // The body is walked where it is defined too (its words unknown there): the call's walk is the last.
    const called = (command: string, program: string) =>
      parseShell(command).segments.findLast((s) => s.program === program);
    expect(called(`sh -c 'run() { "$@"; }; run npm publish' _`, 'npm')).toMatchObject({ args: ['publish'] });
    expect(called(`f() { $2 $3 $4; }; f x cp /dev/null .bashrc`, 'cp')).toMatchObject({
      args: ['/dev/null', '.bashrc'],
    });
    expect(called(`f() { echo "$1"; }; f hello`, 'echo')).toMatchObject({ args: ['hello'] });
  });
});

describe('line continuations after $', () => {
  it.each([
    ['echo "$\\\n(npm publish)"', 'npm'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell default expansion, not a template
    ['echo ${x:-$\\\n(npm publish)}', 'npm'],
    ["$\\\n'\\x6e\\x70\\x6d' publish", 'npm'],
  ])('are removed before the shell reads what follows: %s', (command, program) => {
    expect(parseShell(command).segments.map((s) => s.program)).toContain(program);
  });
});

describe('named specials', () => {
  it('keep their text only while the command neither assigns nor unsets them', () => {
    expect(first('rm -rf /tmp/build-$SECONDS')).toMatchObject({ unresolved: false });
    expect(first("sh -c 'SECONDS=rm; $SECONDS -rf build'")?.unresolved).toBe(true);
    expect(first('unset RANDOM; RANDOM=-rf; rm $RANDOM build')?.unresolved).toBe(true);
  });
});

describe('zsh expansions', () => {
  it('reads =NAME in a first place as the program NAME', () => {
    expect(parseShell('=npm publish').segments[0]).toMatchObject({ program: 'npm' });
  });

  it.each([
    [`zsh -c 'x="npm publish"; $=x'`, undefined],
    [`x='$(npm publish)'; print \${(e)x}`, 'prompt_substitution'],
    ["zsh -c 'hash ls=/usr/bin/rm; ls -rf src'", 'hash_path'],
    [`zsh -c 'functions[ls]="npm publish"; ls'`, 'alias_definition'],
  ])('%s is not read as literal text', (command, kind) => {
    const facts = parseShell(command);
    if (kind) expect(facts.dynamic.map((d) => d.kind)).toContain(kind);
    else expect(facts.segments.at(-1)?.unresolved).toBe(true);
  });
});

describe('IFS assigned by other means', () => {
  it.each([
    'declare IFS=:; git $(echo clean:-fdx)',
    '{ IFS=:; }; git $(echo clean:-fdx)',
    'true && IFS=:; git $(echo clean:-fdx)',
    'f() { git $(echo clean:-fdx); }; IFS=: f',
    'let IFS=1; git $(echo clean1-fdx)',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell default expansion, not a template
    'IFS=${X:-:}; git $(echo clean:-fdx)',
    'IFS=: : ; git $(echo clean:-fdx)',
    'IFS=:; git "$(echo clean)"$(echo :-fdx)',
  ])('leave the word as written, an unresolved expansion: %s', (command) => {
    const git = parseShell(command).segments.findLast((s) => s.program === 'git');
    expect(git?.unresolved).toBe(true);
    expect(git?.args[0]).toMatch(/\$\(/);
  });
});
