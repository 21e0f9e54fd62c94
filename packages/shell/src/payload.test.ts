// Is interpreter code plainly read-only? Code that hides in strings and regexes (interpolation, perl's
// code blocks, s///e) counts as code; a pattern, a keyword argument's name or an awk variable does not.
import { describe, expect, it } from 'vitest';
import { isReadOnlyCode } from './payload.js';
import type { Language } from './programs.js';

describe('code inside strings is code', () => {
  it.each<[Language, string]>([
    ['perl', 'print "@{[ system(q(touch /srv/a)) ]}"'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: perl, node and ruby code under test, not templates
    ['perl', 'print "${\\ unlink(q(/srv/a)) }"'],
    ['perl', '$_ = "a"; s/a/unlink(q(b))/e; print'],
    ['perl', 'print "a" =~ /(?{ unlink("b") })/'],
    ['ruby', 'puts "#{File.delete(%q(/srv/a))}"'],
    ['ruby', "puts 'x\"' + \"#{Dir.rmdir('d')}\""],
    ['python', 'print(f\'{__import__("os").remove("a")}\')'],
    ['python', "print(rf\"{open('a', 'w')}\")"],
    ['python', "print(f'''{eval(\"1\")}''')"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: perl, node and ruby code under test, not templates
    ['node', 'console.log(`${require("fs").unlinkSync("a")}`)'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: perl, node and ruby code under test, not templates
    ['node', 'console.log(`${ {a: process.exit()}.a }`)'],
  ])('%s: %s', (language, code) => {
    expect(isReadOnlyCode(language, code)).toBe(false);
  });

  it.each<[Language, string]>([
    ['ruby', 'puts "total: #{1 + 2}"'],
    ['python', "n = 3; print(f'{n} items, {{literal}}')"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: perl, node and ruby code under test, not templates
    ['node', 'const n = 2; console.log(`n is ${n * 2}`)'],
  ])('%s: %s passes', (language, code) => {
    expect(isReadOnlyCode(language, code)).toBe(true);
  });
});

describe('perl patterns are data where perl reads a term', () => {
  it.each([
    'print if /warn/',
    'print unless /^\\s*#/',
    's/colour/color/g',
    'print $1 if /release: (\\S+)/',
    '$line =~ tr/a-z/A-Z/; print $line',
    'next if /^$/; print',
  ])('%s passes', (code) => {
    expect(isReadOnlyCode('perl', code)).toBe(true);
  });

  it.each([
    // after a value `/` divides: what lies between is code
    'print 4 / unlink("a") / 2',
    'unlink $_ if /tmp/',
    's{a}{b}g',
  ])('%s is not read-only', (code) => {
    expect(isReadOnlyCode('perl', code)).toBe(false);
  });
});

describe('awk computes unless it runs, pipes, reads a command or redirects', () => {
  it.each([
    '{ total += $3 } END { print total }',
    '{ seen[$1]++ } END { for (k in seen) print k, seen[k] }',
    'NR > 1 && $2 > 10 { print $1 }',
    '{ printf "%-8s %d\\n", $1, $2 }',
    'function sq(x) { return x * x } { print sq($1) }',
  ])('%s passes', (code) => {
    expect(isReadOnlyCode('awk', code)).toBe(true);
  });

  it.each([
    'BEGIN { system("date") }',
    '{ print $0 | "sort" }',
    'BEGIN { "hostname" | getline h; print h }',
    '{ print > "out.txt" }',
    '@load "filefuncs"; BEGIN { unlink("a") }',
  ])('%s is not read-only', (code) => {
    expect(isReadOnlyCode('awk', code)).toBe(false);
  });
});

describe('names that are data or declared', () => {
  it.each<[Language, string]>([
    ['python', 'import json, sys; d = json.load(sys.stdin); print(json.dumps(d, indent=2, sort_keys=True))'],
    ['python', 'import sys; print(sys.executable, sys.path)'],
    ['python', 'total = 0\nfor v in range(4): total += v\nprint(total)'],
    ['ruby', 'puts [3, 1, 2].sort.first'],
    ['ruby', 'puts RUBY_VERSION'],
    ['python', 'import platform, sys; print(platform.python_version()); sys.exit(0)'],
    ['node', "console.log(require('os').hostname(), require('node:path').basename('/a/b.txt'))"],
    ['node', 'process.stdout.write(process.versions.node + "\\n")'],
    ['python', 'import json, sys; print(json.load(sys.stdin)["version"])'],
    ['node', "const os = require('os'); console.log(os.platform())"],
    ['perl', 'my %h = (a => 1); print $h{a}'],
  ])('%s: %s passes', (language, code) => {
    expect(isReadOnlyCode(language, code)).toBe(true);
  });

  it.each<[Language, string]>([
    ['python', 'print(x=open("a", "w"))'],
    ['python', 'total = 0; total += __import__("os").getpid()'],
    ['node', "require('fs').rmSync('build', { recursive: true })"],
    ['node', "require('child_process').execSync('ls')"],
    ['node', "require('os').setPriority(0, 19)"],
    // A declared name is never an attribute: `os = 0` does not make `.os.popen` the code's own.
    ['python', 'import uuid; os = 0; popen = 0; uuid.os.popen("x")'],
    [
      'node',
      'let getBuiltinModule = 0; let execSync = 0; process.getBuiltinModule("child_process").execSync("x")',
    ],
    ['lua', 'local os = os; local execute = 0; os.execute("x")'],
    ['ruby', 'IO = 0 if false; popen = 0; IO.popen("x")'],
    // Calls through a value: string keys, strings called, symbolic references.
    ['node', 'process["getBuiltinModule"]("fs")["rmSync"]("x")'],
    ['node', 'const m = process["mainModule"]; m'],
    ['node', '[]["constructor"]["constructor"]("x")()'],
    ['perl', '&{"CORE::open"}(my $f, "|-", "x")'],
    ['perl', 'my $f = \\&CORE::print; $f->("x")'],
    ['php', '("sys"."tem")("x");'],
    ['php', '$f = "sys"."tem"; $f("x");'],
    // A declared name called: a parameter or a variable may hold any function.
    ['node', 'Object.values(process).map((f, i) => i == 49 && f("child_process"))'],
    ['node', 'const f = process.exit; f(1)'],
    ['python', 'f = print; f(1)'],
  ])('%s: %s is not read-only', (language, code) => {
    expect(isReadOnlyCode(language, code)).toBe(false);
  });
});

describe('literals and comments are found left to right, as the language reads them', () => {
  it.each<[Language, string]>([
    // An apostrophe in a comment opens no string: what follows is code.
    ['python', "# don't\n__import__('os').system('rm -rf x')  # '"],
    ['node', "// don't\nrequire('child_process').execSync('rm -rf x') // '"],
    ['ruby', "# don't\nsystem('rm -rf x') # '"],
    ['perl', "# don't\nunlink('x') # '"],
    ['lua', "-- don't\nos.execute('rm -rf x') -- '"],
    ['php', "// don't\nunlink('x'); // '"],
    // A string holding a triple quote is one string; what follows it is code.
    ['python', "x = '\"\"\"'; __import__('os').remove('a'); y = '\"\"\"'"],
    // Division is not a regex: what lies between two slashes is code.
    ['awk', 'BEGIN { x = 1 / 2; system("rm -rf x"); y = 3 / 4 }'],
    // php runs backquoted text in the shell, and calls inside "{$…}".
    ['php', 'echo `id`;'],
    ['php', 'echo "{$db->exec(1)}";'],
    // A literal left open could hide the rest.
    ['python', "print('x)\nimport os"],
    // A regex inside a template's `${…}`; a PHP 8 attribute `#[…]` (code, not a comment).
    // biome-ignore lint/suspicious/noTemplateCurlyInString: node code under test, not a template
    ['node', '`${/`/}`;require("child_process").execSync("x");//}`'],
    ['php', '(\n#[A] function(){system("x");}\n)();'],
    // A name that runs code is never the code's own: `except E as exec`, `exec = None` not run.
    ['python', 'try:\n pass\nexcept Exception as exec:\n pass\nexec("1")'],
    ['python', 'if False:\n    exec = None\nexec("1")'],
    // A regex read as division but holding a quote; JS's `<!--` comment; perl's `$main'x`, `;#'`.
    ['node', 'if(1)/\'/;require("child_process");//\''],
    ['node', '<!-- \'\nrequire("child_process") // \''],
    ['perl', "$main'x = 1; system('x'); $x = '';"],
    ['perl', "print 1;#'\nsystem('x');#'"],
    ['perl', "=pod '\nx\n=cut\nsystem('x')"],
    // Heredocs, percent literals and php's `?>` are not followed: not read-only.
    ['ruby', "p <<~X\n'\nX\nsystem('x') # '"],
    ['ruby', "p %(')\nsystem('x') # '"],
    ['php', "?>'<?php system('x'); #'"],
    ['lua', "s = [==[ ' ]==] os.execute('x') --'"],
    // Imports named with `as` or continued lines are all read; a bare CR ends a comment; t-strings
    // interpolate; non-ASCII identifiers fold to ASCII ones.
    ['python', 'import sys as s, shutil as t\nt.rmtree("x")'],
    ['python', 'import sys, \\\nshutil'],
    ['python', '# x\r__import__("os").system("x")'],
    ['python', 't = 0\nt\'{__import__("os").system("x")}\''],
    ['python', '\u{1d41e}\u{1d431}\u{1d41e}\u{1d41c}("1")'],
  ])('%s: %j is not read-only', (language, code) => {
    expect(isReadOnlyCode(language, code)).toBe(false);
  });

  it.each<[Language, string]>([
    ['python', "# it's fine\nprint('a # not a comment')"],
    ['python', 's = """say "hi" it\'s"""\nprint(s.upper())'],
    ['node', 'const re = /["\']/g; console.log("a\'b".split(re).length)'],
    ['ruby', "puts 'it''s' # it's"],
    ['awk', '{ n += $2 / 2 } END { print n }'],
  ])('%s: %j passes', (language, code) => {
    expect(isReadOnlyCode(language, code)).toBe(true);
  });
});

describe('reading the file system and the process', () => {
  it.each<[Language, string]>([
    ['python', 'import os; print(os.getcwd())'],
    ['python', 'import os'],
    ['python', 'import os; print(os.listdir("."), os.path.exists("a"), os.environ.get("HOME"))'],
    ['python', 'from pathlib import Path; print(Path("x").exists(), Path.cwd().parent)'],
    ['python', 'import glob; print(glob.glob("*.py"))'],
    ['node', "const fs = require('fs'); console.log(fs.readdirSync('.'))"],
    ['node', "console.log(JSON.parse(require('fs').readFileSync('package.json', 'utf8')).version)"],
    // package.json's fields are data names.
    ['node', 'console.log(require("./package.json").name)'],
    ['node', "const p = require('./package.json'); console.log(Object.keys(p.scripts), p.devDependencies)"],
    ['node', "const {readFileSync} = require('fs'); console.log(readFileSync('a', {encoding: 'utf8'}))"],
    ['node', 'console.log(JSON.stringify({a: 1, b: [2], c: "x", d: true, e: null}))'],
    ['node', 'console.log([1, 2, 3].map(x => x * 2).filter(Boolean), JSON.stringify({a: 1}, null, 2))'],
    ['python', "print('a-b'.replace('-', '_'))"],
    ['python', 'import json, sys; d = json.load(sys.stdin); print(d.copy())'],
    ['python', "import tomllib, sys; print(tomllib.load(sys.stdin.buffer)['project']['name'])"],
    ['python', "import re, sys; print(len(re.findall(r'^int ', sys.stdin.read(), re.M)))"],
  ])('%s: %s passes', (language, code) => {
    expect(isReadOnlyCode(language, code)).toBe(true);
  });

  it.each<[Language, string]>([
    // Their writers, removers and runners are not in the vocabulary, however they are reached.
    ['python', 'import os; os.remove("x")'],
    ['python', 'import os as o; o.unlink("x")'],
    ['python', 'from os import system; system("id")'],
    ['python', 'from os import *; system("id")'],
    ['python', 'from pathlib import Path; Path("x").write_text("y")'],
    ['python', 'import os; f = os.remove; f("x")'],
    ['node', "require('fs').writeFileSync('x', 'y')"],
    ['node', "const {rmSync} = require('fs'); rmSync('x')"],
    // A destructuring key reads the property; a vocabulary name bound to something else is not the vocabulary's.
    ['node', "const {rmSync: log} = require('fs'); log('x', {recursive: true})"],
    ['node', 'const {kill: log} = process; log(1234)'],
    ['node', '[process].map(({kill: log}) => log(1))'],
    ['node', 'const log = Object.entries(process).filter(([k]) => k == "kill")[0][1]; log(1)'],
    // A function handed over as a value is called by what receives it.
    [
      'node',
      'Object.entries(require("fs")).filter(e => e[0] == "unlinkSync").map(e => "a,b".split(",").map(e[1]))',
    ],
    ['node', 'Object.entries(process).filter(e => e[0] == "kill").map(e => [-1, 9].reduce(e[1]))'],
    ['node', 'const f = Object.values(process)[3]; [1].map(f)'],
    ['node', 'console.log(JSON.stringify({a: 1}, Object.values(process)[3]))'],
    // Data reaches Function through its constructor, and a tagged template calls it.
    ['node', 'require("./package.json").name.constructor.constructor`return process`'],
    // Beside os or pathlib, .replace and .copy move and copy files.
    ['python', "import os; os.replace('x', os.path.expanduser('~/.bashrc'))"],
    ['python', "import pathlib; pathlib.Path('x').replace(pathlib.Path.home() / '.bashrc')"],
    ['python', "from os import replace as print; print('a', 'b')"],
  ])('%s: %s is not read-only', (language, code) => {
    expect(isReadOnlyCode(language, code)).toBe(false);
  });
});

describe('node ES module imports of the builtins that only compute', () => {
  it.each([
    [
      "import { readFileSync } from 'node:fs';\nconsole.log(JSON.parse(readFileSync('package.json','utf8')).version);\n",
      true,
    ],
    ["import path from 'node:path';\nconsole.log(path.join('a','b'));\n", true],
    ["import * as path from 'node:path';\nconsole.log(path.join('a','b'));\n", true],
    ["console.log(require('./package.json').version)", true],
    ["import { rmSync } from 'node:fs';\nrmSync('x', { recursive: true });\n", false],
    ["import fs from 'node:fs';\nfs.rmSync('x');\n", false],
    ["import { rmSync as log } from 'node:fs';\nlog('x');\n", false],
    ["import log from 'node:fs';\nlog.rmSync('x');\n", false],
    ["import { execSync } from 'node:child_process';\nexecSync('rm -rf x');\n", false],
    ["import x from './local.js';\nconsole.log(x)", false],
  ])('%j is read-only: %s', (code, readOnly) => {
    expect(isReadOnlyCode('node', code, true)).toBe(readOnly);
  });
});

describe("python's own names: unbound (NameError) or bound by the code to what its vetted rest makes", () => {
  it.each([
    "foo('.env')",
    "expected = env('.env')",
    "x = f'{a}.env'",
    "remove('x')",
    'def f(x):\n    return x + 1\nprint(f(2))',
    'class A:\n    pass\nprint(A)',
    'a, b = 1, 2\nprint(a + b)',
    'def show(p): p("x")\nshow(print)',
  ])('%j is read-only', (code) => {
    expect(isReadOnlyCode('python', code)).toBe(true);
  });

  it.each([
    // Imports bind names, whatever the module: a safe module still has writers and removers.
    "from os import remove\nremove('x')",
    "from os import (path,\n    remove as r)\nr('x')",
    "try:\n    import os as x\nexcept ImportError:\n    pass\nx.remove('y')",
    // A star import may bind any name.
    "from os import *\nremove('x')",
    "from os import*\nunlink('x')",
    // Builtins, python 2's and site's included, are never the code's own.
    "exec('x')",
    'help()',
    "execfile('x.py')",
    "file('x', 'w')",
    'breakpoint()',
    "__import__('os').remove('x')",
    "def f(p): p('x', 'w')\nf(open)",
    // A name the code assigns a value to is called as whatever it holds.
    'f = print\nf(1)',
  ])('%j is not read-only', (code) => {
    expect(isReadOnlyCode('python', code)).toBe(false);
  });
});
