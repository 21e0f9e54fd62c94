// The scratch-directory idiom: a variable assigned once from a plain mktemp holds a temp path.
import { describe, expect, it } from 'vitest';
import { mktempChained, mktempVariable } from './mktemp-variable.js';

describe('mktempVariable', () => {
  it.each([
    ['$tmp', 'tmp=$(mktemp -d); cp -r src "$tmp"; rm -rf "$tmp"'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
    ['${t}', 't="$(mktemp)" && trap \'rm -f "$t"\' EXIT'],
    ['$work', 'work=$(mktemp -d -t build.XXXXXX); cp -r src "$work"; rm -rf "$work"'],
    ['$d', 'd=$(mktemp --directory --tmpdir); rm -rf "$d"'],
    // The name as an option's letter, a path's part or a plain argument is no assignment.
    ['$d', 'd=$(mktemp -d) && rm -rf "$d"'],
    ['$t', 't=$(mktemp -d -t x.XXXX) && rm -rf "$t"'],
    ['$tmp', 'tmp=$(mktemp -d) && cp /tmp/x "$tmp" && rm -rf "$tmp"'],
    ['$tmp', 'tmp=$(mktemp -d) && cp a.txt "$tmp"/ && rm -rf "$tmp"/a.txt "$tmp"'],
  ])('%s in %j is the mktemp path', (word, text) => {
    expect(mktempVariable(word, [text])).toBeDefined();
  });

  it.each([
    [
      '$tmp/x',
      'tmp=$(mktemp -d); rm -rf "$tmp/x"',
      'a word with more than the variable (empty on failure: /x)',
    ],
    ['$tmp', 'tmp=$(mktemp -d); tmp=/; rm -rf "$tmp"', 'assigned twice'],
    ['$tmp', 'tmp=$(mktemp -d); read tmp; rm -rf "$tmp"', 'read into'],
    ['$tmp', 'tmp=$(mktemp -d); for tmp in /etc; do rm -rf "$tmp"; done', 'a loop variable'],
    ['$tmp', 'tmp=$(mktemp -d); tmp+=/..; rm -rf "$tmp"', 'appended to'],
    ['$tmp', 'tmp=$(mktemp -d); (( tmp = 0 )); rm -rf "$tmp"', 'assigned in arithmetic'],
    ['$tmp', 'tmp=$(mktemp -d); wait -p tmp; rm -rf "$tmp"', 'wait -p'],
    // The name as a plain word: the reading cannot tell `echo tmp` from `{ read tmp; }`.
    ['$tmp', 'tmp=$(mktemp -d) && { read tmp; } <<< ~ && rm -rf "$tmp"', 'read inside a group'],
    ['$tmp', 'tmp=$(mktemp -d); while read tmp; do rm -rf "$tmp"; done < list.txt', 'a while read loop'],
    ['$tmp', 'tmp=$(mktemp -d) && echo tmp && rm -rf "$tmp"', 'a plain word of the name'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
    ['$tmp', 'tmp=$(mktemp -d); rm -rf "${tmp:=/}"', 'an assigning expansion'],
    ['$tmp', 'tmp=$(mktemp -p . -d); rm -rf "$tmp"', 'another directory'],
    ['$tmp', 'tmp=$(mktemp x.XXXX); rm -rf "$tmp"', 'a template in the current directory'],
    ['$tmp', 'mktemp() { echo /; }; tmp=$(mktemp); rm -rf "$tmp"', 'a function named mktemp'],
    ['$tmp', 'PATH=./bin:$PATH; tmp=$(mktemp); rm -rf "$tmp"', 'another PATH'],
    ['$tmp', 'rm -rf "$tmp"', 'never assigned'],
    ['$tmp', 'tmp=$(mktemp -d); read -r t\'\'mp <<< "$HOME"; rm -rf "$tmp"', 'the name spelled with quotes'],
    ['$tmp', 'false && tmp=$(mktemp -d); rm -rf "$tmp"', 'an assignment that may not run'],
    ['$tmp', 'tmp=$(mktemp -d) true; rm -rf "$tmp"', 'a prefix assignment of another command'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
    ['$tmp', 'tmp=$(mktemp -d); n=t; declare "${n}mp=/usr"; rm -rf "$tmp"', 'a name a builtin computes'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
    ['$tmp', 'tmp=$(mktemp -d); printf -v "t${x}mp" /usr; rm -rf "$tmp"', 'printf -v'],
    ['$tmp', 'tmp=$(mktemp -d); cd "$tmp"; rm -rf ./*', 'a directory to work in: empty, it is here'],
    ['$tmp', 'tmp=$(mktemp -d); git -C "$tmp" clean -fdx; rm -rf "$tmp"', 'git -C: empty, it is here'],
  ])('%s in %j is not (%s)', (word, text) => {
    expect(mktempVariable(word, [text])).toBeUndefined();
  });
});

describe('mktempChained: nothing runs after a failed mktemp, so "$tmp"/x is below it', () => {
  it.each([
    'tmp=$(mktemp -d) && cp a "$tmp"/ && rm -rf "$tmp"/a',
    'tmp="$(mktemp -d)" && cat x | tee "$tmp"/y && rm -rf "$tmp"',
  ])('%s', (text) => {
    expect(mktempChained('tmp', [text, 'mktemp -d'])).toBe(true);
  });

  it.each([
    // Whatever follows `;`, a newline, `||` or `&` runs with an empty tmp: "$tmp"/x is /x.
    'tmp=$(mktemp -d); rm -rf "$tmp"/x',
    'tmp=$(mktemp -d)\nrm -rf "$tmp"/x',
    'tmp=$(mktemp -d) && true || rm -rf "$tmp"/x',
    'tmp=$(mktemp -d) && sleep 1 & rm -rf "$tmp"/x',
    'tmp=$(mktemp -d) && { rm -rf "$tmp"/x; }',
    'cd src && tmp=$(mktemp -d) && rm -rf "$tmp"/x',
  ])('%s is not', (text) => {
    expect(mktempChained('tmp', [text])).toBe(false);
  });

  it('a text from elsewhere that mentions the name is not the command', () => {
    expect(mktempChained('tmp', ['tmp=$(mktemp -d) && bash s.sh', 'rm -rf "$tmp"/x'])).toBe(false);
  });
});
