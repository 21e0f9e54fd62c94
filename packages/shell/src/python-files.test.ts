// Python that opens files by literal path: the files it writes are read off the code, and anything
// that is not a plain literal path and mode is not read at all.
import { describe, expect, it } from 'vitest';
import { pythonOpens } from './python-files.js';

describe('pythonOpens', () => {
  it('reads literal paths and modes, and names bound once to a literal', () => {
    expect(pythonOpens("p = 'src/a.ts'\ns = open(p).read()\nopen(p, 'w').write(s)")).toEqual({
      writes: ['src/a.ts'],
      // Read first, then written back: the edit idiom, not a file emptied.
      truncates: [],
      calls: 2,
    });
    expect(
      pythonOpens("with open('a.txt', mode='a', encoding='utf-8') as f:\n    f.write('x')")?.writes,
    ).toEqual(['a.txt']);
    expect(pythonOpens("print(open('README.md').read())")).toEqual({ writes: [], truncates: [], calls: 1 });
    expect(pythonOpens("open('log', 'r+')")?.writes).toEqual(['log']);
  });

  it('names the files a w mode empties without reading them first', () => {
    expect(pythonOpens("open('notes.txt', 'w')")?.truncates).toEqual(['notes.txt']);
    expect(pythonOpens("open('a', mode='w+')\nopen('b', 'a')\nopen('c', 'r+')")?.truncates).toEqual(['a']);
    // The read comes after the truncation: the file was emptied before it was read.
    expect(pythonOpens("open('a', 'w').write('')\nprint(open('a').read())")?.truncates).toEqual(['a']);
    expect(pythonOpens("s = open('b').read()\nopen('a', 'w').write(s)")?.truncates).toEqual(['a']);
  });

  it.each([
    ["import sys\nopen(sys.argv[1], 'w')", 'a computed path'],
    ["p = 'a'\np = p + '/../x'\nopen(p, 'w')", 'a name bound twice'],
    ["for p in ['a', 'b']:\n    open(p, 'w')", 'a loop variable'],
    ["open('a', m)", 'a computed mode'],
    ["open(f'{d}/a', 'w')", 'an f-string path'],
    ["open('$HOME/a', 'w')", 'a path a shell would expand'],
    ["open('a', 'w', opener=x)", 'an opener'],
    ['f = open\nf("a", "w")', 'open passed around'],
    ["os.open('a', 1)", 'an attribute named open'],
    ["p = 'a'\n(p) = '/etc/x'\nopen(p, 'w')", 'a parenthesised rebinding'],
    ["p = 'a'\np, q = '/etc/x', 0\nopen(p, 'w')", 'a tuple rebinding'],
    ["p = 'a'\n[p] = ['/etc/x']\nopen(p, 'w')", 'a list rebinding'],
    ["(lambda p: open(p, 'w'))('/etc/x')", 'a lambda parameter'],
    ["p = 'a'\nif (p := '/etc/x'): open(p, 'w')", 'a walrus'],
    ["open('.' 'git/config', 'w')", 'implicitly joined literals'],
    ["open('a').read()\nprint(f\"{open('/etc/x', 'w')}\")", 'open inside an f-string'],
    ["p = 'a'\nq = p = '/etc/x'\nopen(p, 'w')", 'a chained assignment'],
    ["p = 'a'\nmatch '/etc/x':\n    case p: pass\nopen(p, 'w')", 'a capture pattern'],
  ])('%j is not read (%s)', (code) => {
    expect(pythonOpens(code)).toBeNull();
  });

  it('finds the binding outside strings: a literal inside a string binds nothing', () => {
    const code = "s = '''\np = 'safe.txt'\n'''\np = '/etc/passwd'\nopen(p, 'w').write('x')";
    expect(pythonOpens(code)?.writes).toEqual(['/etc/passwd']);
  });
});
