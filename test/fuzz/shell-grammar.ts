// A grammar of shell commands for fuzzing the parser and classifier (fast-check letrec): simple
// commands with assignments, quoting of every kind, parameter and command substitutions, globs,
// redirections and heredocs; pipelines, lists, subshells, groups, if/for/while, functions; wrappers
// (sudo, env, timeout, nice, xargs, command, nohup) and nested `bash -c` strings. Beside it, argv
// renderers: the same words spelled with different quoting and whitespace, which must classify alike.
import fc from 'fast-check';

export const PROGRAMS = [
  'git',
  'rm',
  'ls',
  'cat',
  'echo',
  'printf',
  'psql',
  'mysql',
  'kubectl',
  'docker',
  'find',
  'curl',
  'npm',
  'terraform',
  'tee',
  'cp',
  'mv',
  'dd',
  'chmod',
  'sed',
  'awk',
  'python3',
  'node',
  'make',
  'aws',
  'tollgate',
  'truncate',
  'shred',
  'xargs',
  'tar',
  'ssh',
];

const FLAGS = [
  '-rf',
  '-f',
  '--force',
  '-n',
  '-i',
  '--hard',
  '-c',
  '-e',
  '-d',
  '--',
  '-delete',
  '-exec',
  '-v',
];
const WORDS = [
  'push',
  'origin',
  'main',
  'reset',
  'HEAD~1',
  'status',
  'delete',
  'pod',
  'DROP',
  'TABLE',
  'users',
  'publish',
  'apply',
  'destroy',
  'install',
  'clean',
  '-fdx',
  'rm',
  's3://b/k',
  'x',
];
const PATHS = [
  '/',
  '.',
  './build',
  'src/a.ts',
  '/etc/passwd',
  '~/.bashrc',
  '.git/config',
  '.tollgate/tollgate.db',
  '.claude/settings.json',
  '/dev/null',
  '/tmp/x',
  '../up',
  'a b.txt',
  '*',
  '*.log',
  '{a,b}',
];
// biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not template placeholders.
const VARS = ['$HOME', '${HOME}', '$1', '$@', '"$X"', '${X:-/}', '$((1+2))', '$?', '~'];

const atom = fc.oneof(
  fc.constantFrom(...FLAGS),
  fc.constantFrom(...WORDS),
  fc.constantFrom(...PATHS),
  fc.constantFrom(...VARS),
  fc.stringMatching(/^[a-z0-9._-]{1,8}$/),
);

/** A literal word put in one of the shell's quoting forms (the value may change: that is fine here). */
const quotedAtom = fc
  .tuple(atom, fc.constantFrom('plain', 'single', 'double', 'ansi', 'mixed', 'escaped'))
  .map(([w, how]) => render(w, how as Quoting));

const redirect = fc.oneof(
  fc
    .tuple(fc.constantFrom('>', '>>', '<', '2>', '&>', '>|', '2>>', '1>'), fc.constantFrom(...PATHS))
    .map(([op, p]) => `${op} ${p}`),
  fc.constantFrom('2>&1', '>&2', '<<< "$X"', '<&-'),
);

const heredoc = fc
  .tuple(
    fc.constantFrom('cat', 'psql', 'bash', 'sh', 'tee out.txt', 'python3 -'),
    fc.constantFrom('EOF', "'EOF'", '"EOF"', '-EOF'),
    fc.array(fc.constantFrom('DROP TABLE t;', 'rm -rf /', 'echo $HOME', 'line', '$(date)', '\tx'), {
      maxLength: 3,
    }),
  )
  .map(([cmd, tag, lines]) => {
    const bare = tag.replace(/['"-]/g, '');
    return `${cmd} <<${tag}\n${lines.join('\n')}\n${bare}\n`;
  });

const WRAPPERS = [
  'sudo',
  'sudo -u root',
  'env',
  'env A=1',
  'timeout 5',
  'nice -n 5',
  'nohup',
  'command',
  'exec',
  'time',
];

export const shellCommand: fc.Arbitrary<string> = fc.letrec<{
  command: string;
  simple: string;
  pipeline: string;
  list: string;
  compound: string;
  wrapped: string;
  nested: string;
  substitution: string;
}>((tie) => ({
  command: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('simple'),
    tie('pipeline'),
    tie('list'),
    tie('compound'),
    tie('wrapped'),
    tie('nested'),
    heredoc,
  ),
  simple: fc
    .tuple(
      fc.option(fc.constantFrom('A=1', 'PATH=/tmp', 'GIT_DIR=/x', 'LD_PRELOAD=/x.so'), { nil: undefined }),
      fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...PROGRAMS) }, { weight: 1, arbitrary: quotedAtom }),
      fc.array(
        fc.oneof({ weight: 4, arbitrary: quotedAtom }, { weight: 1, arbitrary: tie('substitution') }),
        {
          maxLength: 5,
        },
      ),
      fc.array(redirect, { maxLength: 2 }),
    )
    .map(([assign, program, args, redirects]) =>
      [assign, program, ...args, ...redirects].filter((x) => x !== undefined).join(' '),
    ),
  pipeline: fc
    .array(tie('simple'), { minLength: 2, maxLength: 3 })
    .chain((parts) => fc.constantFrom(' | ', ' |& ').map((bar) => parts.join(bar))),
  list: fc
    .tuple(tie('command'), fc.constantFrom(' && ', ' || ', '; ', ' & ', '\n'), tie('command'))
    .map(([a, op, b]) => `${a.trimEnd()}${op}${b}`),
  compound: fc.oneof(
    tie('command').map((c) => `( ${c.trimEnd()} )`),
    tie('command').map((c) => `{ ${c.trimEnd()}; }`),
    fc.tuple(tie('simple'), tie('command')).map(([cond, c]) => `if ${cond}; then ${c.trimEnd()}; fi`),
    tie('command').map((c) => `for f in *; do ${c.trimEnd()}; done`),
    fc.tuple(tie('simple'), tie('command')).map(([cond, c]) => `while ${cond}; do ${c.trimEnd()}; done`),
    tie('command').map((c) => `f() { ${c.trimEnd()}; }; f`),
    tie('command').map((c) => `! ${c}`),
  ),
  wrapped: fc.tuple(fc.constantFrom(...WRAPPERS), tie('simple')).map(([w, c]) => `${w} ${c}`),
  nested: fc.oneof(
    fc
      .tuple(fc.constantFrom('bash -c', 'sh -c', 'sudo sh -c', 'env bash -c'), tie('command'))
      .map(([sh, c]) => `${sh} ${render(c, 'single')}`),
    tie('command').map((c) => `eval ${render(c, 'single')}`),
    tie('simple').map((c) => `echo ${render(c, 'single')} | sh`),
    tie('simple').map((c) => `find . -name x -exec ${c} \\;`),
    tie('simple').map((c) => `xargs ${c}`),
  ),
  substitution: fc.oneof(
    tie('command').map((c) => `"$(${c.trimEnd()})"`),
    tie('command').map((c) => `$(${c.trimEnd()})`),
    tie('simple').map((c) => `\`${c.replace(/[`\\$]/g, '\\$&')}\``),
    tie('simple').map((c) => `<(${c})`),
  ),
})).command;

export type Quoting = 'plain' | 'single' | 'double' | 'ansi' | 'mixed' | 'escaped';

/** Characters that make a word need quoting somewhere. */
const SPECIAL = /[\s'"\\$`|&;<>(){}*?[\]~#!=]/;

/** The word spelled so that the shell reads it back as exactly `word` (plain only when it can be). */
export function render(word: string, how: Quoting): string {
  if (how === 'plain' && (word === '' || SPECIAL.test(word))) return render(word, 'single');
  switch (how) {
    case 'plain':
      return word;
    case 'single':
      return `'${word.replace(/'/g, `'\\''`)}'`;
    case 'double':
      return `"${word.replace(/["\\$`]/g, '\\$&')}"`;
    case 'ansi':
      return `$'${word.replace(/[\\']/g, '\\$&').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}'`;
    case 'escaped':
      return word === ''
        ? "''"
        : word.replace(/[^A-Za-z0-9_./,:@%+-]/g, (c) => (c === '\n' ? "$'\\n'" : `\\${c}`));
    case 'mixed': {
      if (word.length < 2) return render(word, 'double');
      const cut = Math.floor(word.length / 2);
      return `${render(word.slice(0, cut), 'single')}${render(word.slice(cut), 'double')}`;
    }
  }
}

/**
 * An argv whose every word is a plain literal: a program, then arguments that may hold spaces and
 * shell metacharacters (which must then be quoted to stay literal). No word starts with `-` twice in a
 * way the quoting could change, none is a reserved word or an assignment in command position.
 */
export const literalArgv = fc
  .tuple(
    fc.constantFrom(...PROGRAMS.filter((p) => p !== 'xargs')),
    fc.array(
      fc.oneof(
        fc.constantFrom(...FLAGS, ...WORDS),
        fc.constantFrom(
          'a b',
          'x;y',
          'p|q',
          '$HOME',
          '*.log',
          '~/x',
          "it's",
          'say "hi"',
          '{a,b}',
          '#c',
          'a=b',
        ),
        fc.stringMatching(/^[a-zA-Z0-9._/-]{1,10}$/),
      ),
      { maxLength: 5 },
    ),
  )
  .map(([program, args]) => [program, ...args]);

/** The argv spelled with a quoting form per word and any run of blanks between words. */
export const spelling = (argv: readonly string[]) =>
  fc
    .tuple(
      fc.array(fc.constantFrom<Quoting>('plain', 'single', 'double', 'ansi', 'mixed', 'escaped'), {
        minLength: argv.length,
        maxLength: argv.length,
      }),
      fc.array(fc.constantFrom(' ', '  ', '\t', ' \t '), {
        minLength: argv.length + 1,
        maxLength: argv.length + 1,
      }),
    )
    .map(([how, gaps]) => {
      const words = argv.map((w, i) => render(w, how[i] ?? 'plain'));
      return `${gaps[0]}${words.map((w, i) => `${w}${gaps[i + 1]}`).join('')}`;
    });
