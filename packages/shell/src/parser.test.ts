// parseShell: every construct that can hide a simple command, and the bounds on bad input.
import { describe, expect, it } from 'vitest';
import { createBudget, LimitExceeded, MAX_STEPS, tick } from './budget.js';
import { parseShell, type ShellSegment } from './index.js';
import { Parser } from './parser.js';

const programs = (command: string) => parseShell(command).segments.map((s) => s.program);
const find = (command: string, program: string): ShellSegment => {
  const segment = parseShell(command).segments.find((s) => s.program === program);
  if (!segment) throw new Error(`no ${program} segment in ${command}`);
  return segment;
};
const kinds = (command: string) => parseShell(command).dynamic.map((d) => d.kind);

describe('lists, pipelines and nesting', () => {
  it.each([
    ['a && b || c ; d & e', ['a', 'b', 'c', 'd', 'e']],
    ['a | b |& c', ['a', 'b', 'c']],
    ['(a; (b)) && { c; d; }', ['a', 'b', 'c', 'd']],
    ['echo $(a $(b)) `c`', ['a', 'b', 'echo', 'c'].sort()],
    ['diff <(left) >(right)', ['diff', 'left', 'right'].sort()],
    ['if a; then b; elif c; then d; else e; fi', ['a', 'b', 'c', 'd', 'e']],
    ['while a; do b; done; until c; do d; done', ['a', 'b', 'c', 'd']],
    ['for x in 1 2 $(gen); do use "$x"; done', ['gen', 'use']],
    ['case "$v" in a|b) one ;; *) two ;; esac', ['one', 'two']],
    ['f() { inner; }; function g { other; }', ['inner', 'other']],
    ['x=$(setup) y=`more`', ['more', 'setup', ''].sort()],
    ['[[ -n $(probe) ]] && act', ['act', 'probe']],
    ['echo one\necho two', ['echo', 'echo']],
    ['a \\\n  --flag', ['a']],
  ])('%j', (command, expected) => {
    expect(programs(command).sort()).toEqual([...expected].sort());
  });

  it('says which commands of a pipeline send their stderr down it too (`|&`)', () => {
    const piped = new Parser('a |& b | c |& d', createBudget(8, 1000)).parseScript();
    expect(piped.pipelines[0]?.stderrPiped).toEqual([0, 2]);
    const plain = new Parser('a | b', createBudget(8, 1000)).parseScript();
    expect(plain.pipelines[0]?.stderrPiped).toBeUndefined();
  });

  it('keeps $((…)) arithmetic as data but reads (( … )) as commands too (nested subshells in sh)', () => {
    expect(programs('echo "$(( 1 + 2 ))"')).toEqual(['echo']);
    expect(programs('(( rm -rf / ))')).toContain('rm');
  });

  it('parses nested bash -c / sh -c / zsh -c strings recursively, with the via chain', () => {
    const rm = find(`sudo bash -c "sh -c 'zsh -c \\"rm -rf /srv\\"'"`, 'rm');
    expect(rm.via).toEqual(['sudo', 'bash -c', 'sh -c', 'zsh -c']);
    expect(rm.positionals).toEqual(['/srv']);
  });

  it('binds the positional parameters of sh -c to the arguments after it', () => {
    expect(find(`bash -c '"$@"' _ rm -rf /data`, 'rm').args).toEqual(['-rf', '/data']);
    expect(programs(`bash -c '"$1"' _ 'rm -rf /data'`)).not.toContain('rm');
    expect(find(`bash -c 'IFS=,; $*' _ 'rm,-rf,/data'`, 'rm').positionals).toEqual(['/data']);
  });
});

describe('prefixes and wrappers', () => {
  it.each([
    ['sudo -u root -E rm -rf /x', ['sudo']],
    ['doas -u op rm -rf /x', ['doas']],
    ['env -i A=1 -u B rm -rf /x', ['env']],
    ['nice -n 5 nohup timeout -s KILL 30s rm -rf /x', ['nice', 'nohup', 'timeout']],
    ['time command builtin exec rm -rf /x', ['time', 'command', 'builtin', 'exec']],
    ['stdbuf -oL ionice -c 3 rm -rf /x', ['stdbuf', 'ionice']],
    ['busybox rm -rf /x', ['busybox']],
    ['sshpass -p secret -P assword rm -rf /x', ['sshpass']],
    ['watch -n 5 rm -rf /x', ['watch']],
    ['xargs -0 -n 1 rm -rf', ['xargs']],
    ['parallel -j 4 rm -rf ::: /x', ['parallel :::']],
    ['parallel -j 4 rm -rf', ['parallel']],
    ['find . -type d -exec rm -rf {} +', ['find -exec']],
    ['find . -execdir rm -rf {} \\;', ['find -execdir']],
    ['ssh -p 22 host rm -rf /x', ['ssh']],
    ['su - root -c "rm -rf /x"', ['su -c']],
    ['kubectl exec -it pod -- rm -rf /x', ['kubectl exec']],
    ['docker exec -u 0 box rm -rf /x', ['docker exec']],
    ['doppler run -- rm -rf /x', ['doppler run']],
    ['nsenter -t 1 -m -u rm -rf /x', ['nsenter']],
    ['unshare -r --fork rm -rf /x', ['unshare']],
  ])('%s reaches rm via %j', (command, via) => {
    const rm = find(command, 'rm');
    expect(rm.via).toEqual(via);
  });

  it('splits env -S strings and records env assignments', () => {
    const git = find(`env -S 'A=1 git -C /repo' reset --hard`, 'git');
    expect(git.assignments).toEqual(['A=1']);
    expect(git.subcommand).toBe('reset');
  });

  it('stops at prefixes that run nothing', () => {
    expect(programs('command -v rm')).toEqual(['command']);
    expect(programs('sudo -l')).toEqual(['sudo']);
  });

  it('marks xargs items and find -exec placeholders unresolved', () => {
    expect(find('xargs rm', 'rm').unresolved).toBe(true);
    expect(find('find . -exec rm {} +', 'rm').unresolved).toBe(true);
    expect(find('find . -name "*.o" -delete', 'find').flags).toContain('-delete');
    expect(find('find . -name -delete -print', 'find').flags).not.toContain('-delete');
  });
});

describe('words: quotes, escapes, paths, look-alikes', () => {
  it.each([
    ["r''m -rf /x"],
    ['\\rm -rf /x'],
    ['"r"m -rf /x'],
    ['/bin/rm -rf /x'],
    ['./rm -rf /x'],
    ['RM -rf /x'],
    ['"C:\\tools\\rm.exe" -rf /x'],
    ['FOO=1 BAR="2 3" rm -rf /x'],
    ['r$(printf m) -rf /x'],
    ['rm\u00a0-rf\u200b /x'],
    ['ｒｍ -rf /x'],
  ])('%j is rm -rf', (command) => {
    const rm = find(command, 'rm');
    expect(rm.flags).toEqual(expect.arrayContaining(['-r', '-f']));
  });

  it('folds an em dash into -- and an en dash into -', () => {
    expect(find('git push \u2014force origin', 'git').flags).toContain('--force');
    expect(find('rm \u2013rf x', 'rm').flags).toContain('-r');
  });

  it('splits flags: clusters, --name=value, values of known options', () => {
    const git = find('git -C repo -c a.b=c commit -am "reset --hard" --author=x', 'git');
    expect(git.subcommand).toBe('commit');
    expect(git.flags).toEqual(expect.arrayContaining(['-am', '-a', '-m', '--author=x', '--author']));
    expect(git.positionals).toEqual(['commit']);
    expect(find('git switch -cfeature', 'git').flags).not.toContain('-f');
  });

  it('resolves git aliases given on the command line and in the environment', () => {
    expect(find('git -c alias.zap=reset zap --hard', 'git').subcommand).toBe('reset');
    const env = find(
      'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.zap GIT_CONFIG_VALUE_0=reset git zap --hard',
      'git',
    );
    expect(env.subcommand).toBe('reset');
    expect(kinds('git -c "alias.zap=!rm -rf /x" zap')).toContain('shell_alias');
  });

  it('reports redirects, and which of them truncate', () => {
    const echo = find('echo x > a >> b 2>&1 &> c >| d 3<e', 'echo');
    expect(echo.redirects.map((r) => [r.op, r.target, r.truncates])).toEqual([
      ['>', 'a', true],
      ['>>', 'b', false],
      ['>&', '1', false],
      ['&>', 'c', true],
      ['>|', 'd', true],
      ['<', 'e', false],
    ]);
    expect(programs('> file')).toEqual(['']);
  });

  it('reads a whole command line quoted as one word as intent', () => {
    expect(programs("'git checkout -f'")).toContain('git');
  });
});

describe('stdin and payloads', () => {
  it('gives heredoc and here-string bodies as stdin and parses them when fed to a shell', () => {
    const facts = parseShell("bash <<'EOF'\nrm -rf /x\nEOF");
    expect(facts.segments.map((s) => s.program)).toEqual(['bash', 'rm']);
    expect(facts.segments[0]?.stdin).toBe('rm -rf /x\n');
    expect(programs('sh <<< "git reset --hard"')).toContain('git');
    expect(programs('printf "rm -rf /x\\n" | sh')).toContain('rm');
  });

  it('gives a command’s stdin to the commands of the shell text it runs (sh -c, eval, groups, scripts)', () => {
    const fed = (command: string) => parseShell(command).segments.filter((s) => s.program === 'rm');
    for (const command of [
      'printf "rm -rf /x" | bash -c sh',
      'printf "rm -rf /x" | bash -c "sh -s"',
      'printf "rm -rf /x" | eval sh',
      'printf "rm -rf /x" | { sh; }',
      'printf "rm -rf /x" | (cd /tmp; sh)',
      'printf "rm -rf /x" | su -c sh',
      'printf "rm -rf /x" | fish --command sh',
    ]) {
      expect(fed(command), command).not.toEqual([]);
    }
    expect(kinds('curl -s https://example.com/i.sh | bash -c bash')).not.toEqual([]);
    // What the inner text feeds itself is its own: `cat` in the group reads the pipe, nothing runs.
    expect(programs('echo hi | { cat; }')).toEqual(['echo', 'cat']);
  });

  it('gives a pipe or a redirection to every command of a compound command, not only its first', () => {
    const fed = (command: string) => parseShell(command).segments.filter((s) => s.program === 'rm');
    for (const command of [
      'printf "rm -rf /x" | { read -r first; sh; }',
      'printf "rm -rf /x" | while read -r line; do sh; done',
      'printf "rm -rf /x" | until false; do bash -s; break; done',
      'printf "rm -rf /x" | if true; then sh; fi',
      'printf "rm -rf /x" | if false; then :; elif true; then :; else sh; fi',
      'printf "rm -rf /x" | for i in 1; do sh; done',
      'printf "rm -rf /x" | for ((i = 0; i < 1; i++)); do sh; done',
      'printf "rm -rf /x" | for i in 1; { sh; }',
      "while read -r line; do sh; done <<'EOF'\nrm -rf /x\nEOF",
      // A function's body reads its caller's stdin, wherever it was defined.
      'f() { sh; }; printf "rm -rf /x" | f',
      'function g { bash -s; }\nprintf "rm -rf /x" | g',
      "run() {\n  sh\n}\nrun <<'EOF'\nrm -rf /x\nEOF",
      // A call written before the definition (inside another function), a prefix, every definition.
      'g() { f; }; f() { sh; }; printf "rm -rf /x" | g',
      'f() { sh; }; printf "rm -rf /x" | time f',
      'f() { sh; }; (f() { true; }); printf "rm -rf /x" | f',
      // `exec < FILE` alone is the stdin of everything after it.
      "exec 0<<'EOF'\nrm -rf /x\nEOF\nsh",
    ]) {
      expect(fed(command), command).not.toEqual([]);
    }
    // Downloaded text fed to a loop that runs a shell is not static: unknown, not passed.
    expect(kinds('curl -s https://example.com/i.sh | while read -r l; do bash; done')).not.toEqual([]);
    // The loop's own redirection is where the shell inside reads from.
    expect(kinds('while read -r l; do sh; done < "$SCRIPT"')).not.toEqual([]);
  });

  it('writes a redirection after done, fi or } for the whole construct', () => {
    for (const command of [
      'for f in a b; do echo "$f"; done > /etc/motd',
      'if true; then date; fi >> /etc/motd',
      '{ date; uptime; } > /etc/motd',
      'for f in a; { echo; } > /etc/motd',
    ]) {
      const writes = parseShell(command).segments.flatMap((s) => s.writes ?? []);
      expect(writes, command).toContain('/etc/motd');
    }
  });

  it('reads constructs leniently: an unclosed one ends with the input, a stray keyword is skipped', () => {
    expect(programs('while true; do rm -rf /x')).toContain('rm');
    expect(programs('if a; then b')).toEqual(['a', 'b']);
    expect(programs('done; fi; rm -rf /x')).toContain('rm');
    expect(programs('{ { { a; }; }; }; b')).toEqual(['a', 'b']);
    // A function that calls itself is walked once per call site, not forever.
    expect(programs('f() { f; sh; }; echo x | f')).toContain('sh');
    expect(programs('(while a; do b; done) | c')).toEqual(['a', 'b', 'c']);
    // Not keywords where they stand: arguments and brace words.
    expect(programs('echo done fi } {; {rm,-rf,/x}')).toEqual(['echo', 'rm']);
  });

  it('runs substitutions in unquoted heredocs, not in quoted ones', () => {
    expect(programs('cat <<EOF\n$(rm -rf /x)\nEOF')).toContain('rm');
    expect(programs("cat <<'EOF'\n$(rm -rf /x)\nEOF")).toEqual(['cat']);
  });

  it('ends a heredoc only at its delimiter exactly, a carriage return included where bash reads one', () => {
    // `EOF\r` does not end a body opened by `<<EOF`: the rest, quoted heredoc and all, is its text.
    expect(programs("cat <<EOF\nEOF\r\ncat <<'EOF'\n$(git push --force)\nEOF")).toContain('git');
    expect(programs("cat <<EOF\nEOF\r\n: '\n$(rm -rf ~)\n'\nEOF")).toContain('rm');
    // A CRLF command: the delimiter word carries its `\r`, and so does the line that ends it.
    expect(programs('cat <<EOF\r\nhello\r\nEOF\r\nls -la\r\n')).toEqual(['cat', 'ls']);
  });

  it('ends an unquoted heredoc where bash does: continuation lines are joined before the comparison', () => {
    expect(programs('cat <<EOF\nEO\\\nF\nrm -rf ~\nEOF')).toContain('rm');
    expect(programs('cat <<-EOF\n\tEO\\\nF\nrm -rf ~\nEOF')).toContain('rm');
    expect(programs('x=$(cat <<EOF\nEO\\\nF\nrm -rf ~\nEOF\n)')).toContain('rm');
    // Quoted, the body is taken as it is.
    expect(programs("cat <<'EOF'\nEO\\\nF\nrm -rf ~\nEOF")).toEqual(['cat']);
    // Carriage returns inside the delimiter word are part of it.
    expect(programs('cat <<E\rOF\nE\rOF\nrm -rf ~\nE\r')).toContain('rm');
    expect(programs('cat <<EOF\r\r\nEOF\r\r\nrm -rf ~\nEOF\r')).toContain('rm');
  });

  it('reads a # after a carriage return as part of a word, not a comment', () => {
    expect(programs('echo hi\r# ; rm -rf ~')).toContain('rm');
    expect(programs('ls # a comment; rm -rf ~')).toEqual(['ls']);
  });

  it('runs substitutions inside single quotes where bash evaluates arithmetic', () => {
    expect(programs("echo $(( '$(rm -rf ~)' ))")).toContain('rm');
    expect(programs("echo $[ '$(rm -rf ~)' ]")).toContain('rm');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
    expect(programs("x=abc; echo ${x:'$(rm -rf ~)'}")).toContain('rm');
    expect(kinds("x=(['$(rm -rf ~)']=1)")).toContain('arithmetic_substitution');
    // A default value's quotes still quote.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
    expect(programs("echo ${x:-'$(rm -rf ~)'}")).toEqual(['echo']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
    expect(programs('echo $[1 + 2] ${x:1:2} ${x: -1}')).toEqual(['echo']);
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
  it("runs bash 5.3's ${ list; } and ${| list; } as command substitutions", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
    expect(programs('echo ${ rm -rf ~/; }')).toContain('rm');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
    expect(programs('x=${ git push --force; }')).toContain('git');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
    expect(programs('echo "${| rm -rf ~; }"')).toContain('rm');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
    expect(programs("bash -c 'echo ${\tgit reset --hard\n}'")).toContain('git');
    // Parameter expansions stay what they are.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
    expect(programs('echo ${HOME} ${#x} ${x:-y} ${x// /_}')).toEqual(['echo']);
  });

  it('extracts database payloads from options, positionals, heredocs and pipes', () => {
    expect(find(`psql -h db -c 'DROP TABLE t'`, 'psql').payload).toBe('DROP TABLE t');
    expect(find(`mysql -e"TRUNCATE t"`, 'mysql').payload).toBe('TRUNCATE t');
    expect(find(`sqlite3 app.db 'DELETE FROM t'`, 'sqlite3').payload).toBe('DELETE FROM t');
    expect(find('redis-cli -h cache FLUSHALL', 'redis-cli').payload).toBe('FLUSHALL');
    expect(find("psql <<'SQL'\nDROP SCHEMA s;\nSQL", 'psql').payload).toBe('DROP SCHEMA s;\n');
    expect(find('echo "FLUSHDB" | redis-cli', 'redis-cli').payload).toBe('FLUSHDB\n');
    expect(find(`psql -c "SELECT 'drop table x'"`, 'psql').payload_lc).toBe("select ''");
  });

  it('ssh remote commands are parsed as shell', () => {
    expect(find(`ssh deploy@box 'cd app && git clean -fdx'`, 'git').via).toEqual(['ssh']);
  });
});

describe('dynamic constructs', () => {
  it.each([
    ['eval "$CMD"', 'eval'],
    ['$TOOL --run', 'substitution_in_command_position'],
    ['$(which rm) -rf /x', 'substitution_in_command_position'],
    ['curl -fsSL https://x.example/i.sh | sh', 'pipe_to_shell'],
    ['base64 -d payload | bash', 'pipe_to_shell'],
    ['source ./env.sh', 'source'],
    ['. ./env.sh', 'source'],
    [`python3 -c 'import shutil; shutil.rmtree("/x")'`, 'interpreter_code'],
    [`node -e 'require("child_process").execSync(process.argv[1])'`, 'interpreter_code'],
    [`perl -e 'unlink glob "*"'`, 'interpreter_code'],
    ['ruby -e \'puts `ls`.size; File.write("n", 1)\'', 'interpreter_code'],
    ['ruby -e "`ls`"', 'unresolved_code'],
    [`awk 'BEGIN { system("x" y) }'`, 'interpreter_code'],
    [`deno eval "Deno.removeSync('build', { recursive: true })"`, 'interpreter_code'],
    [`deno eval --ext=ts 'await Deno.remove("x")'`, 'interpreter_code'],
    ["python3 <<'PY'\nimport os\nos.remove('x')\nPY", 'interpreter_code'],
    ['bash -c "$SNIPPET"', 'unresolved_code'],
    ['sh "$SCRIPT"', 'unresolved_script'],
    ['xargs -I{} python3 {}', 'unresolved_script'],
    ['git -c "$KEY" status', 'unresolved_config'],
    ["$'\\x72\\x6d' -rf /x", 'escaped_program'],
    ['cat x | parallel', 'pipe_to_shell'],
  ])('%s → %s', (command, kind) => {
    expect(kinds(command)).toContain(kind);
  });

  it.each([
    [`python3 -c 'print("rm -rf /")'`],
    ['node -p "1 + 2"'],
    [`deno eval 'console.log(6 * 7)'`],
    [`perl -E 'say join ",", 1..3'`],
    [`ruby -e 'puts [1, 2].map { |x| x * 2 }'`],
    [`awk -F: '{ print $1 }' /etc/passwd`],
    ['eval "echo ok"'],
    ['echo "$(date)" "$HOME"'],
    ['bash -n -c "rm -rf /x"'],
  ])('%s is static', (command) => {
    expect(parseShell(command).dynamic).toEqual([]);
  });
});

describe('bad input', () => {
  // CPU time, not wall time: the bound is on the parser's work, not on how busy the machine is.
  const timed = (command: string) => {
    const start = process.cpuUsage();
    const facts = parseShell(command);
    const used = process.cpuUsage(start);
    return { facts, ms: (used.user + used.system) / 1000 };
  };

  it('an unclosed $[ or ${ list is a parse error that names what is unclosed', () => {
    for (const [command, error] of [
      ['echo $[ 1 + 2', 'unclosed $['],
      ['echo ${ rm -rf x; ', 'unclosed ${ command substitution'],
    ]) {
      const facts = parseShell(command as string);
      expect({ command, error: facts.error, kinds: facts.dynamic.map((d) => d.kind) }).toEqual({
        command,
        error,
        kinds: ['parse_error'],
      });
    }
  });

  it('an empty command has no segments and no error', () => {
    expect(parseShell('')).toEqual({ segments: [], dynamic: [] });
    expect(parseShell('   \n ; ')).toEqual({ segments: [], dynamic: [] });
  });

  it('a 1 MB command returns within 50 ms as a limit error', () => {
    const { facts, ms } = timed(`echo ${'a'.repeat(1 << 20)}`);
    expect(ms).toBeLessThan(50);
    expect(facts.error).toMatch(/longer than/);
    expect(facts.dynamic.length).toBeGreaterThan(0);
  });

  it.each([
    ['10k nested $(', '$('.repeat(10_000)],
    ['10k nested (', '('.repeat(10_000)],
    ['10k nested backquotes', `echo ${'`echo \\'.repeat(3000)}`],
    ['10k nested bash -c', `bash -c ${'\'bash -c "'.repeat(3000)}`],
    ['10k commands', 'a;'.repeat(10_000)],
    ['30k words', `echo ${'x '.repeat(15_000)}`],
  ])('%s returns within 150 ms without throwing', (_name, command) => {
    // Best of three CPU measurements; the work is bounded by steps (MAX_STEPS), not by the clock.
    const runs = [timed(command), timed(command), timed(command)];
    expect(Math.min(...runs.map((r) => r.ms))).toBeLessThan(150);
    expect(Array.isArray(runs[0]?.facts.segments)).toBe(true);
  });

  it('gives the same answer for text read again and again (nested bash -c) with any deadline', () => {
    const command = `bash -c ${'\'bash -c "'.repeat(3000)}`;
    const answer = (deadlineMs?: number) => {
      const facts = parseShell(command, deadlineMs ? { deadlineMs } : {});
      return { error: facts.error, kinds: facts.dynamic.map((d) => d.kind) };
    };
    expect(answer()).toEqual(answer(60_000));
    expect(answer().error).toBeDefined();
  });

  it('stops any parse at the step bound, a bound on work and not on time', () => {
    const budget = createBudget(24, 60_000);
    expect(() => {
      for (let i = 0; i <= MAX_STEPS + 512; i++) tick(budget);
    }).toThrow(LimitExceeded);
    expect(budget.steps).toBeLessThanOrEqual(MAX_STEPS + 512);
  });

  it('reports deep nesting as a limit', () => {
    const facts = parseShell(`${'$('.repeat(100)}x${')'.repeat(100)}`);
    expect(facts.error).toMatch(/nesting/);
    expect(facts.dynamic.map((d) => d.kind)).toContain('limit');
  });

  it('rejects NUL bytes', () => {
    const facts = parseShell('rm -rf /x\0; ls');
    expect(facts.error).toMatch(/NUL/);
    expect(facts.dynamic.length).toBeGreaterThan(0);
  });

  it('recovers from unbalanced quotes with an error', () => {
    const facts = parseShell("git clean -f 'unfinished");
    expect(facts.error).toMatch(/unterminated single quote/);
    expect(facts.segments[0]?.flags).toContain('-f');
    expect(parseShell('echo "open').error).toMatch(/unterminated double quote/);
  });

  it('replaces lone surrogates and reports the text as dynamic', () => {
    const facts = parseShell('echo \ud800 x');
    expect(facts.dynamic.map((d) => d.kind)).toContain('invalid_text');
    expect(JSON.stringify(facts)).not.toMatch(/\\ud800/i);
  });

  it('reports syntax errors as parse_error', () => {
    expect(kinds('echo )')).toContain('parse_error');
    expect(kinds('obj.method("x")')).toContain('parse_error');
  });

  it('never throws on arbitrary input', () => {
    const alphabet = [
      '$',
      '(',
      ')',
      '`',
      "'",
      '"',
      '\\',
      '<',
      '>',
      '|',
      '&',
      ';',
      '{',
      '}',
      '\n',
      ' ',
      'a',
      '-',
      '#',
      '=',
    ];
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      let text = '';
      for (let k = 0; k < 40; k++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        text += alphabet[seed % alphabet.length];
      }
      const facts = parseShell(text);
      expect(() => JSON.stringify(facts)).not.toThrow();
    }
  });
});

describe('programs that run the command lines they are given', () => {
  it.each([
    ["trap -- 'rm -rf /x' EXIT", 'rm'],
    ["sg wheel 'rm -rf /x'", 'rm'],
    ["sg - wheel 'rm -rf /x'", 'rm'],
    ["hyperfine --prepare='rm -rf /x' true", 'rm'],
    ["hyperfine -p'rm -rf /x' true", 'rm'],
    ["hyperfine --warmup 3 'rm -rf /x'", 'rm'],
    // parallel joins the words and its shell re-splits them.
    ["parallel 'rm -rf' ::: /x", 'rm'],
    ["parallel 'git reset' --hard ::: a", 'git'],
    // An unquoted here-document joins a backslash-newline before it expands: `$\⏎(…)` runs.
    ['cat <<EOF > notes.md\n$\\\n(rm -rf /x)\nEOF', 'rm'],
  ])('%j runs %s', (command, program) => {
    expect(programs(command)).toContain(program);
  });

  it('rg --pre runs its command with each searched file, which is not known here', () => {
    expect(kinds('rg --pre sh pattern notes.txt')).not.toEqual([]);
    expect(kinds('rg --pre=cat pattern notes.txt')).toEqual([]);
    expect(kinds('rg --pre-glob "*.gz" pattern')).toEqual([]);
  });

  it('leaves what only looks like a command alone', () => {
    expect(programs('trap -p EXIT')).toEqual(['trap']);
    expect(programs('sg wheel')).toEqual(['sg']);
    expect(programs("cat <<'EOF' > notes.md\n$\\\n(rm -rf /x)\nEOF")).toEqual(['cat']);
    // One job per item.
    expect(programs('parallel gzip ::: a.txt b.txt')).toEqual(['gzip', 'gzip']);
  });
});
