import { describe, expect, it } from 'vitest';
import { judgeSessionCode, sessionCodeLanguage } from './session-code.js';

const py = (text: string) => judgeSessionCode('python', text);
const js = (text: string) => judgeSessionCode('node', text);

describe('sessionCodeLanguage', () => {
  it('tells a runner’s code files by name', () => {
    expect(sessionCodeLanguage('/p/tests/test_a.py')).toBe('python');
    for (const name of ['a.test.js', 'a.spec.ts', 'x.mjs', 'x.cjs', 'c.tsx', 'd.mts'])
      expect(sessionCodeLanguage(`/p/${name}`)).toBe('node');
    for (const name of ['README.md', 'data.json', 'a.pyc', 'x.sh'])
      expect(sessionCodeLanguage(`/p/${name}`)).toBeUndefined();
  });
});

describe('plain test code has no capability', () => {
  it.each([
    'def test_ok():\n    assert 1 + 1 == 2\n',
    'import os\nimport json\nfrom app.core import answer\n\ndef test_answer(tmp_path):\n    p = tmp_path / "x.json"\n    p.write_text(json.dumps({"a": os.path.join("a", "b")}))\n    assert answer() == 42\n',
    'import pytest\nfrom pathlib import Path\n\n@pytest.mark.parametrize("n", [1, 2])\ndef test_n(n):\n    assert getattr(Path("."), "name") == ""\n',
    'import subprocess\n\ndef test_version():\n    out = subprocess.run(["git", "--version"], capture_output=True)\n',
    'import shutil\n\ndef test_copy(tmp_path):\n    shutil.copy("a", tmp_path)\n    assert shutil.which("git")\n',
    'from http import HTTPStatus\nimport urllib.parse\nassert urllib.parse.quote("a b") == "a%20b"\n',
    'import os\nassert os.environ.get("HOME")\n',
  ])('python: %s', (text) => {
    expect(py(text).capability).toBeUndefined();
  });

  it.each([
    "import { describe, it, expect } from 'vitest';\nimport { answer } from '../src/index.js';\ndescribe('a', () => { it('is 42', () => expect(answer).toBe(42)); });\n",
    "const test = require('node:test');\nconst assert = require('node:assert');\ntest('x', () => assert.equal(1, 1));\n",
    "import fs from 'node:fs';\nimport { join } from 'node:path';\nconst text = fs.readFileSync(join(__dirname, 'fixture.json'), 'utf8');\n",
    "import { Widget } from './widget';\nclass Box { constructor(private n: number) {} }\nexport const type = { type: 'module' };\n",
    "export function Hello({ name }: { name: string }) {\n  return <p>Don't panic, {name}!</p>;\n}\n",
    "Object.defineProperty(window, 'matchMedia', { value: vi.fn() });\nglobalThis.fetch = vi.fn();\n",
  ])('node: %s', (text) => {
    expect(js(text).capability).toBeUndefined();
  });
});

describe('literal shell calls are commands, judged as such', () => {
  it('finds python and node literal calls', () => {
    expect(
      py('import subprocess\nsubprocess.run(["git", "push", "--force", "origin", "main"])\n').commands,
    ).toEqual(["'git' 'push' '--force' 'origin' 'main'"]);
    expect(py('import os\nos.system("rm -rf important")\n')).toEqual({ commands: ['rm -rf important'] });
    expect(js("require('child_process').execSync('git push -f origin main');\n").commands).toEqual([
      'git push -f origin main',
    ]);
  });
});

describe('what acts, or hides what it does, is named', () => {
  it.each([
    ['import subprocess\ncmd = ["git", "push", "-f"]\nsubprocess.run(cmd)\n', 'subprocess'],
    ['from subprocess import run\nrun(["git", "push", "-f"])\n', 'subprocess'],
    ['import subprocess as sp\nsp.call("x")\n', 'subprocess'],
    ['import os\nos.system(cmd)\n', 'os.system'],
    ['import os\nos.execvp("git", ["git", "push"])\n', 'os.execvp'],
    ['from os import system as s\ns("x")\n', 'system'],
    ['from os import *\n', '*'],
    ['import os as o\n', 'os as o'],
    ['import shutil\nshutil.rmtree("important")\n', 'shutil.rmtree'],
    ['from shutil import (\n    copy,\n    rmtree,\n)\n', 'rmtree'],
    ['import os.path\nos.remove(p)\n', 'os.remove'],
    ['from pathlib import Path\nPath("important/x").unlink()\n', 'unlink'],
    ['__import__("os").system("x")\n', '__import__'],
    ['import importlib\nimportlib.import_module("o" + "s")\n', 'importlib'],
    ['exec(open("payload").read())\n', 'exec'],
    ['eval(compile(src, "f", "exec"))\n', 'eval'],
    ['import os\ngetattr(os, "sys" + "tem")("x")\n', 'getattr'],
    ['import os\ngetattr(os, "system")("x")\n', 'os.system'],
    ['import sys\nsys.modules["os"].system("x")\n', 'sys.modules'],
    ['().__class__.__bases__[0].__subclasses__()\n', '__class__'],
    ['import asyncio\nasyncio.create_subprocess_shell(c)\n', 'create_subprocess_shell'],
    ['import pytest\nsp = pytest.importorskip("subprocess")\n', 'importorskip'],
    [
      'import pandas as pd\npd.DataFrame().rename(columns={})\nfrom pathlib import Path\nPath("x").unlink()\n',
      'unlink',
    ],
    ['import _posixsubprocess\n', '_posixsubprocess'],
    ['import ctypes\nctypes.CDLL(None).system(b"x")\n', 'ctypes'],
    ['import pickle\npickle.loads(blob)\n', 'pickle'],
    ["s = f\"{__import__('os').system('x')}\"\n", '__import__'],
    ['ｅｘｅｃ("x")\n', 'ASCII'],
  ])('python: %s', (text, named) => {
    expect(py(text).capability).toContain(named);
  });

  it.each([
    ["import { execSync } from 'node:child_process';\nexecSync(cmd);\n", 'child_process'],
    ["const cp = require('child_process');\ncp.spawnSync('git', ['push', '-f']);\n", 'child_process'],
    ["const m = 'child' + '_process';\nrequire(m).execSync('x');\n", 'named at run time'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is code whose template interpolates
    ['await import(`./${name}`);\n', 'named at run time'],
    ["import fs from 'node:fs';\nfs.rmSync('important', { recursive: true });\n", 'rmSync'],
    ["const { rmSync: r } = require('fs');\nr('important');\n", 'rmSync'],
    ["import fsp from 'node:fs/promises';\nawait fsp['r' + 'm']('x');\n", 'computed name'],
    ["import fs from 'fs';\nfs['rmSync']('important', { recursive: true });\n", 'rmSync'],
    ["eval('1 + 1');\n", 'eval'],
    ["new Function('return process')();\n", 'Function'],
    ["globalThis.process.mainModule.require('child_process');\n", 'child_process'],
    ["process.getBuiltinModule('child_process');\n", 'getBuiltinModule'],
    ["''.constructor.constructor('return this')();\n", 'constructor'],
    ["import { $ } from 'zx';\nawait $`git push -f`;\n", 'zx'],
    ["Bun.spawn(['git', 'push']);\n", 'Bun'],
    ['const e = \\u0065val;\n', '\\u'],
    ["const g = globalThis;\ng['ev' + 'al']('1');\n", 'globalThis'],
    ['const g = function () { return this[k]; };\n', 'this['],
    ["export const A = () => <p>Don't {x}</p>;\nconst B = () => <i>ok</i>;\n} eval(code) <b/>\n", 'eval'],
  ])('node: %s', (text, named) => {
    expect(js(text).capability).toContain(named);
  });

  it('a string or comment left open cannot be read plainly', () => {
    expect(py('x = """never closed\nimport os\n').capability).toContain('plainly');
  });
});

describe('Go, Rust and Ruby the session wrote', () => {
  it.each([
    [
      'go',
      'package x\n\nimport "testing"\n\nfunc TestA(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal("no")\n\t}\n}\n',
    ],
    [
      'go',
      'package x\n\nimport (\n\t"os"\n\t"testing"\n)\n\nfunc TestB(t *testing.T) { _ = os.Getenv("HOME") }\n',
    ],
    ['rust', '#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(2 + 2, 4); }\n}\n'],
    [
      'ruby',
      'require "spec_helper"\n\nRSpec.describe Calc do\n  it "adds the system totals" do\n    expect(YAML.load("a: 1")).to eq({ "a" => 1 })\n    h = { a: 1 }\n    h.delete(:a)\n  end\nend\n',
    ],
  ] as const)('%s: plain code passes', (language, text) => {
    expect(judgeSessionCode(language, text).capability).toBeUndefined();
  });

  it.each([
    ['go', 'import "os/exec"\nfunc init() { exec.Command("git", "push", "-f").Run() }\n', 'os/exec'],
    ['go', 'import "os"\nfunc TestX(t *testing.T) { os.RemoveAll("important") }\n', 'os.RemoveAll'],
    ['go', 'import xos "os"\n', 'os as xos'],
    ['go', '//go:generate rm -rf important\npackage x\n', 'go:generate'],
    ['rust', 'fn main() { std::process::Command::new("git").arg("push").status().unwrap(); }\n', 'Command'],
    [
      'rust',
      'use std::fs;\n#[test]\nfn t() { fs::remove_dir_all("important").unwrap(); }\n',
      'remove_dir_all',
    ],
    ['rust', 'fn f() { unsafe { libc_system() } }\n', 'unsafe'],
    ['ruby', 'system("git push --force")\n', 'system'],
    ['ruby', 'x = `rm -rf important`\n', '`'],
    ['ruby', 'FileUtils.rm_rf("important")\n', 'FileUtils.rm_rf'],
    ['ruby', 'obj.public_send(:sys, "x")\n', 'public_send'],
    ['ruby', 'require name\n', 'require'],
    ['ruby', 'puts "#{IO.popen("rm -rf x").read}"\n', 'popen'],
  ] as const)('%s: %s is named', (language, text, named) => {
    expect(judgeSessionCode(language, text).capability).toContain(named);
  });
});
