import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callDigest, parseCall } from './call.js';
import { digestOf } from './canonical.js';

describe('parseCall', () => {
  it.each([
    ['missing', {}],
    ['a number', { command: 42 }],
    ['an array', { command: ['rm', '-rf', '/'] }],
    ['null', { command: null }],
  ])('refuses a shell call whose args.command is %s', (_, args) => {
    const parsed = parseCall({ tool: 'shell', args, session: 's1' });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.reasons).toEqual([
        expect.objectContaining({ code: 'schema_invalid', path: '/call/args/command' }),
      ]);
  });

  it('accepts a shell call with a string command, and other tools without one', () => {
    expect(parseCall({ tool: 'shell', args: { command: 'ls' }, session: 's1' }).ok).toBe(true);
    expect(parseCall({ tool: 'deploy', args: {}, session: 's1' }).ok).toBe(true);
  });
});

// A prediction binds to the words that run, not to how they were quoted (issue 14).
describe('callDigest of a shell command', () => {
  const digest = (command: string) => callDigest({ tool: 'shell', args: { command } });
  const RESERVED = new Set([
    'if',
    'then',
    'else',
    'elif',
    'fi',
    'do',
    'done',
    'while',
    'until',
    'for',
    'select',
    'case',
    'esac',
    'in',
    'function',
    'coproc',
    'time',
  ]);
  const BARE = /^[A-Za-z0-9_./:@%+,-]+$/;
  const spell: Record<string, (w: string) => string> = {
    single: (w) => `'${w.replace(/'/g, `'\\''`)}'`,
    double: (w) => `"${w.replace(/[\\"$`]/g, '\\$&')}"`,
    // A backslash before a newline joins lines, so a newline is quoted another way.
    backslash: (w) =>
      w === ''
        ? "''"
        : [...w].map((c) => (/[A-Za-z0-9]/.test(c) ? c : c === '\n' ? "'\n'" : `\\${c}`)).join(''),
    ansiC: (w) =>
      `$'${[...w].map((c) => (c === '\\' || c === "'" ? `\\${c}` : /[ -~]/.test(c) ? c : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)).join('')}'`,
    bare: (w) => (BARE.test(w) && !RESERVED.has(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`),
  };
  const styles = Object.keys(spell);
  const char = fc.constantFrom(...'abcXYZ019 -_./~=:*?[]{}$`\'"\\!#&|;<>()\t\nHEAD'.split(''));
  const word = fc.string({ unit: char, maxLength: 12 });
  const argv = fc.array(word, { minLength: 1, maxLength: 5 }).filter((a) => a[0] !== '');
  /** One word in a random mix of styles: split into chunks, each quoted its own way. */
  const spelled = (w: string, choices: number[]): string => {
    if (choices.length < 2 || w.length < 2)
      return spell[styles[(choices[0] ?? 0) % styles.length] as string]?.(w) ?? w;
    const cut = 1 + ((choices[1] ?? 0) % (w.length - 1));
    return `${spell[styles[(choices[0] ?? 0) % styles.length] as string]?.(w.slice(0, cut))}${spelled(w.slice(cut), choices.slice(2))}`;
  };
  const style = fc.array(fc.nat(20), { maxLength: 6 });

  it('is the same for every quoting style of the same argv', () => {
    fc.assert(
      fc.property(
        argv,
        fc.array(style, { minLength: 5, maxLength: 5 }),
        fc.array(style, { minLength: 5, maxLength: 5 }),
        (words, a, b) => {
          const one = words.map((w, i) => spelled(w, a[i] ?? [])).join(' ');
          const two = words.map((w, i) => spelled(w, b[i] ?? [])).join('  ');
          expect(digest(one)).toBe(digest(two));
          expect(digest(one)).toBe(digest(words.map((w) => spell.single?.(w)).join(' ')));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('differs for different argv, however each is quoted', () => {
    fc.assert(
      fc.property(argv, argv, fc.array(style, { minLength: 5, maxLength: 5 }), (x, y, s) => {
        fc.pre(JSON.stringify(x) !== JSON.stringify(y));
        expect(digest(x.map((w, i) => spelled(w, s[i] ?? [])).join(' '))).not.toBe(
          digest(y.map((w) => spell.single?.(w)).join(' ')),
        );
      }),
      { numRuns: 400 },
    );
  });

  it.each([
    ['git reset --hard HEAD~1', "git reset --hard 'HEAD~1'"],
    ['psql -c "DROP TABLE users"', "psql -c 'DROP TABLE users'"],
    ['a  &&  b > "f g"', "'a' && b >'f g'"],
  ])('binds %s and %s to one digest', (one, two) => {
    expect(digest(one)).toBe(digest(two));
  });

  it.each([
    ['rm -rf ~/x', "rm -rf '~/x'"],
    ['rm *', "rm '*'"],
    ['rm {a,b}', "rm '{a,b}'"],
    ['A=b cmd', "'A=b' cmd"],
    ['echo $HOME', "echo '$HOME'"],
    ['echo $HOME', 'echo "$HOME"'],
    ['a && b', 'a || b'],
    ['a; b', 'a | b'],
    ['echo x > f', 'echo x >> f'],
    ['if true; then rm -rf x; fi', "'if' true; then rm -rf x; fi"],
    ['cat <<EOF\n$HOME\nEOF', "cat <<'EOF'\n$HOME\nEOF"],
    ['cat <<EOF\na  b\nEOF', 'cat <<EOF\na b\nEOF'],
    ["[[ $x =~ 'a.b' ]]", '[[ $x =~ a.b ]]'],
    ['a\rb', 'a b'],
  ])('keeps %j and %j apart: they run different things', (one, two) => {
    expect(digest(one)).not.toBe(digest(two));
  });

  it('takes a command that does not parse as its literal text, and keeps the literal command for the audit', () => {
    expect(digest("echo 'open")).toBe(digestOf({ tool: 'shell', args: { command: "echo 'open" } }));
    const parsed = parseCall({ tool: 'shell', args: { command: "git reset --hard 'HEAD~1'" }, session: 's' });
    expect(parsed.ok && JSON.parse(parsed.canonical).args.command).toBe("git reset --hard 'HEAD~1'");
    expect(parsed.ok && parsed.digest).toBe(digest('git reset --hard HEAD~1'));
  });
});
