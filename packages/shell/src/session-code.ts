// Code the session wrote that a test runner loads and runs without the gate reading it (a test file,
// a conftest, a module the tests import): judged by what it can do. Its literal shell calls
// (`subprocess.run(['git', 'push', '--force'])`, `execSync('rm -rf x')`) are commands like any other,
// parsed by the caller; anything else that starts a process, deletes or renames files, talks to the
// network or runs code built at run time is a capability the gate cannot follow, named here so the
// call is unknown-dynamic. Plain code — assertions, fixtures, the project's own modules — has none.
// A capability is looked for where the code can reach it: a module's members only where the module
// is imported, a deleting function wherever its name appears, dynamic code by the names that make it.
import { scanLiterals } from './code-literals.js';
import type { Language } from './programs.js';
import { judgeGo, judgeRuby, judgeRust } from './session-code-more.js';
import { shellCalls } from './shell-calls.js';

export type SessionCodeLanguage = Extract<Language, 'python' | 'node' | 'ruby'> | 'go' | 'rust';

export interface SessionCodeJudgement {
  /** Literal command lines the code hands to a shell or runs as argv, as the shell receives them. */
  commands: string[];
  /** What the code can do that the gate cannot follow, in a few words; absent when nothing. */
  capability?: string;
}

/** The language a runner loads a file as, by its name; undefined for files no runner here loads as code. */
export function sessionCodeLanguage(path: string): SessionCodeLanguage | undefined {
  if (/\.py$/.test(path)) return 'python';
  if (/\.(?:[cm]?[jt]s|[jt]sx)$/.test(path)) return 'node';
  if (/\.go$/.test(path)) return 'go';
  if (/\.rs$/.test(path)) return 'rust';
  if (/\.(?:rb|rake)$|(?:^|\/)(?:Rakefile|Gemfile)$/.test(path)) return 'ruby';
  return undefined;
}

// ---------------------------------------------------------------- python

/** Modules whose every use acts on the world or loads code (processes, FFI, unpickling, remote shells). */
const PY_MODULES = new Set([
  'subprocess',
  'pty',
  'ctypes',
  'cffi',
  'importlib',
  'imp',
  'runpy',
  'multiprocessing',
  'pexpect',
  'plumbum',
  'sh',
  'invoke',
  'fabric',
  'paramiko',
  'pickle',
  'cPickle',
  'marshal',
  'dill',
  'shelve',
  'code',
  'codeop',
  'builtins',
  '__builtin__',
  'posix',
  'nt',
  'distutils',
  'pydoc',
  'webbrowser',
  'git',
  'docker',
]);
/** Members of plain modules that act: os's processes and removals, shutil's tree removal and moves. */
const PY_MEMBERS: Readonly<Record<string, ReadonlySet<string>>> = {
  os: new Set([
    'system',
    'popen',
    'startfile',
    'kill',
    'killpg',
    'remove',
    'removedirs',
    'unlink',
    'rmdir',
    'rename',
    'renames',
    'replace',
    'truncate',
    'symlink',
    'link',
    'chmod',
    'chown',
    'lchown',
    'fchmod',
    'fchown',
    'chroot',
  ]),
  shutil: new Set(['rmtree', 'move', 'chown', 'unpack_archive']),
  asyncio: new Set(['create_subprocess_exec', 'create_subprocess_shell']),
  concurrent: new Set(['futures']),
  pytest: new Set(['importorskip']),
};
/** os's families by prefix: exec*, spawn*, fork*, posix_spawn*. */
const OS_FAMILIES = /^(?:exec|spawn|fork|posix_spawn)/;
const acts = (module: string, member: string): boolean =>
  PY_MEMBERS[module]?.has(member) === true || (module === 'os' && OS_FAMILIES.test(member));
/** Path methods that delete a file or plant a link, whatever object they are called on (not `rename`: pandas renames columns). */
const PY_DELETING_METHODS = /\.\s*(?:unlink|rmdir|symlink_to|hardlink_to)\s*\(/;
/** Names that run code built at run time, or reach any module without importing it. */
const PY_DYNAMIC =
  /\b(?:eval|exec|compile|__import__|globals|locals|vars|breakpoint|setattr|delattr)\s*\(|__(?:builtins|dict|globals|subclasses|code|bases|mro|loader|spec|getattribute|reduce|reduce_ex|class)__|\bsys\s*\.\s*(?:modules|meta_path|path_hooks|settrace|setprofile|addaudithook)\b/;

interface PyImport {
  module: string;
  /** `from M import a, b` (names bound unqualified), `*` for all. */
  names?: string[];
  /** `import M as A`. */
  alias?: string;
}

function pythonImports(code: string): PyImport[] {
  // Continued lines and parenthesised name lists are one statement.
  const joined = code
    .replace(/\\\n/g, ' ')
    .replace(
      /(\bimport\s*)\(([^)]*)\)/g,
      (_m, head: string, inner: string) => `${head}${inner.replace(/\n/g, ' ')}`,
    );
  const found: PyImport[] = [];
  for (const m of joined.matchAll(/(?:^|[;\n:])\s*from\s+([\w.]+)\s+import\s+([^\n;]*)/g)) {
    const names = (m[2] as string)
      .split(',')
      .map((n) => n.trim().split(/\s+as\s+/)[0] as string)
      .filter((n) => n !== '');
    found.push({ module: m[1] as string, names });
  }
  for (const m of joined.matchAll(/(?:^|[;\n:])\s*import\s+([^\n;]+)/g)) {
    for (const part of (m[1] as string).split(',')) {
      const [module, alias] = part.trim().split(/\s+as\s+/);
      if (module) found.push({ module, ...(alias ? { alias } : {}) });
    }
  }
  return found;
}

function judgePython(code: string, literals: readonly string[]): string | undefined {
  const imports = pythonImports(code);
  for (const { module, names, alias } of imports) {
    const top = module.split('.')[0] as string;
    // A private C module (`_posixsubprocess`) is the machinery under a public one.
    if (top.startsWith('_') && top !== '__future__') return `imports ${module}`;
    if (PY_MODULES.has(top)) {
      // `import M` alone reaches nothing until M is used: its uses are looked for below.
      if (names === undefined && alias === undefined) continue;
      return `imports ${module}`;
    }
    const member = module.split('.')[1];
    if (member !== undefined && acts(top, member)) return `imports ${module}`;
    const acting = names?.find((n) => n === '*' || acts(top, n));
    if (acting !== undefined) return `imports ${acting} from ${module}`;
    // `import os as o`: its members are reached through a name this does not follow.
    if (PY_MEMBERS[top] && alias !== undefined) return `imports ${module} as ${alias}`;
  }
  const body = code.replace(/(?:^|[;\n:])\s*(?:from\s+[\w.]+\s+)?import\s+[^\n;]+/g, '\n');
  for (const { module, names } of imports) {
    const top = module.split('.')[0] as string;
    if (names === undefined && PY_MODULES.has(top) && new RegExp(`\\b${top}\\s*\\.`).test(body))
      return `uses ${top}`;
  }
  for (const m of body.matchAll(/\b(\w+)\s*\.\s*(\w+)/g))
    if (acts(m[1] as string, m[2] as string)) return `calls ${m[1]}.${m[2]}`;
  const deleting = PY_DELETING_METHODS.exec(body);
  if (deleting) return `deletes or moves files (${deleting[0].replace(/[\s.(]/g, '')})`;
  const dynamic = PY_DYNAMIC.exec(body);
  if (dynamic) return `runs or reaches code at run time (${dynamic[0].replace(/[\s(]/g, '')})`;
  // getattr follows only a literal name, and that name must not be one that acts.
  for (const m of body.matchAll(/\bgetattr\s*\(\s*([^,()]+),\s*([^,()]+)/g)) {
    const one = /^\s*""\s*$/.test(m[2] as string);
    const name = one
      ? literalAt(body, literals, (m.index ?? 0) + m[0].length - (m[2] as string).length)
      : undefined;
    if (name === undefined) return 'looks an attribute up by a computed name (getattr)';
    const owner = (m[1] as string).trim();
    if (acts(owner, name) || PY_MODULES.has(owner)) return `looks up ${owner}.${name}`;
  }
  return undefined;
}

// ---------------------------------------------------------------- node

/** Built-in and common modules that start processes, load code or delete trees. */
const NODE_MODULES = new Set([
  'child_process',
  'worker_threads',
  'cluster',
  'vm',
  'module',
  'inspector',
  'repl',
  'wasi',
  'v8',
  'execa',
  'shelljs',
  'zx',
  'cross-spawn',
  'rimraf',
  'del',
  'fs-extra',
]);
const NODE_FS = new Set(['fs', 'fs/promises', 'graceful-fs']);
/** fs's functions that delete, move or truncate: by name wherever they appear once fs is loaded. */
const NODE_DELETING =
  /\b(?:rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync|rename|renameSync|truncate|truncateSync|ftruncate|ftruncateSync|symlink|symlinkSync)\b/;
// The global object by a static member (`globalThis.fetch = vi.fn()`) names what it reaches; used
// any other way (a computed key, handed on) it reaches eval by a name the scan cannot see.
const NODE_DYNAMIC =
  /\b(?:eval|Function|Reflect|Bun|Deno|WebAssembly|createRequire|getBuiltinModule|fromCharCode|atob)\b|\b(?:globalThis|global|window|self)\b(?!\s*\.\s*[A-Za-z_$])|\bthis\s*\[|""\s*\+\s*""|\.\s*(?:mainModule|binding|_linkedBinding|dlopen|constructor|__proto__)\b|\bprocess\s*\.\s*(?:kill|chdir)\b|\bprocess\s*\[|\\u/;

function judgeNode(code: string, literals: readonly string[]): string | undefined {
  // Module names are strings: `require('child_process')`, `import … from 'node:vm'`, `import('vm')`.
  const loaded: string[] = [];
  for (const m of code.matchAll(/\b(?:require\s*\(|import\s*\(|from|import)\s*""/g)) {
    const name = literalAt(code, literals, (m.index ?? 0) + m[0].length - 2);
    if (name !== undefined) loaded.push(name.replace(/^node:/, ''));
  }
  const module = loaded.find(
    (name) => NODE_MODULES.has(name) || NODE_MODULES.has(name.split('/')[0] as string),
  );
  if (module !== undefined) return `loads ${module}`;
  // A module named by anything but one plain string may be any module.
  for (const m of code.matchAll(/\b(?:require|import)\s*\(([^()]*)(\)?)/g))
    if (
      !/^\s*""\s*$/.test(m[1] as string) ||
      m[2] !== ')' ||
      literalAt(code, literals, (m.index ?? 0) + m[0].length - (m[1] as string).length - 1) === undefined
    )
      return 'loads a module named at run time';
  const fs = fsBindings(code, literals);
  if (fs !== null) {
    const named =
      NODE_DELETING.exec(code)?.[0] ??
      literals.map(literalText).find((t) => /^\w+$/.test(t) && NODE_DELETING.test(t));
    if (named !== undefined) return `deletes or moves files (${named})`;
    // fs's members reached by a computed name, or fs handed to what lists its members.
    for (const name of fs) {
      const computed = new RegExp(
        `\\b${name}\\s*\\[|\\b(?:Object|Reflect)\\s*\\.\\s*\\w+\\s*\\(\\s*${name}\\b`,
      ).exec(code);
      if (computed) return `reaches fs by a computed name (${computed[0].replace(/\s/g, '')})`;
    }
  }
  // jsdom set-up defines a global's member by a literal name (`Object.defineProperty(window, 'matchMedia', …)`).
  const dynamic = NODE_DYNAMIC.exec(
    code.replace(/\bdefineProperty\s*\(\s*(?:globalThis|global|window)\s*,\s*""/g, ''),
  );
  if (dynamic) return `runs or reaches code at run time (${dynamic[0].replace(/\s/g, '')})`;
  return undefined;
}

/**
 * The names an fs module is bound to (`import fs from 'fs'`, `const { promises: p } = require('fs')`):
 * every identifier of each statement that loads it; null when fs is not loaded. A computed key in
 * such a statement binds a member the scan cannot name: `[]` stands for it then.
 */
function fsBindings(code: string, literals: readonly string[]): string[] | null {
  let names: string[] | null = null;
  for (const m of code.matchAll(/(?:^|[;\n])[^;\n]*?\b(?:require\s*\(|from|import)\s*""/g)) {
    const name = literalAt(code, literals, (m.index ?? 0) + m[0].length - 2);
    if (name === undefined || !NODE_FS.has(name.replace(/^node:/, ''))) continue;
    names ??= [];
    const statement = m[0].slice(0, -2);
    if (/\[/.test(statement)) return ['[\\w\\s"+]*'];
    for (const id of statement.matchAll(/\b[A-Za-z_$][\w$]*\b/g))
      if (!/^(?:import|from|require|const|let|var|as|type|default)$/.test(id[0])) names.push(id[0]);
  }
  return names;
}

/** A JSX text run: after a tag's `>` or an expression's `}`, up to the next tag or expression. */
const JSX_TEXT = /([>}])([^<>{}]*)(?=[<{])/g;

// ---------------------------------------------------------------- both

/** A literal's text without prefix and quotes (`r'x'`, `"x"`, `` `x` ``). */
function literalText(literal: string): string {
  return literal.replace(/^[a-zA-Z]*("""|'''|["'`])/, '').replace(/("""|'''|["'`])$/, '');
}

/**
 * The text of the literal whose placeholder (`""`, one per literal, in order) starts at `at` in the
 * scanned code, or after blanks there; undefined when none is (the word is not one literal) or the
 * literal interpolates (built at run time).
 */
function literalAt(code: string, literals: readonly string[], at: number): string | undefined {
  const from = /^\s*""/.exec(code.slice(at));
  if (!from) return undefined;
  const start = at + from[0].length - 2;
  let k = 0;
  for (let i = code.indexOf('""'); i >= 0 && i < start; i = code.indexOf('""', i + 2)) k++;
  const literal = literals[k];
  if (literal === undefined || /^[a-zA-Z]*[fF][a-zA-Z]*['"]|^`[^`]*\$\{/.test(literal)) return undefined;
  return literalText(literal);
}

export function judgeSessionCode(language: SessionCodeLanguage, text: string): SessionCodeJudgement {
  if (language === 'go' || language === 'rust' || language === 'ruby') {
    const capability = (language === 'go' ? judgeGo : language === 'rust' ? judgeRust : judgeRuby)(text);
    return capability === undefined ? { commands: [] } : { commands: [], capability };
  }
  const calls = shellCalls(language, text);
  const rest = calls?.rest ?? text;
  const commands = calls?.commands ?? [];
  let scanned = scanLiterals(rest, language);
  // JSX text is no string (`<p>Don't panic</p>`): read without it, and it judged as code on its own.
  let jsxText = '';
  if (scanned.unsure && language === 'node' && /<\/|\/>/.test(rest)) {
    const regions: string[] = [];
    // A closing tag's `/` is no regex: `</p>` and `<br/>` read as `<>` and `>`.
    const without = rest
      .replace(JSX_TEXT, (_m, open: string, text: string) => {
        regions.push(text);
        return `${open} `;
      })
      .replace(/<\/[\w.:-]*>/g, '<>')
      .replace(/\/>/g, '>');
    scanned = scanLiterals(without, language);
    jsxText = regions.join('\n');
  }
  if (scanned.unsure)
    return { commands, capability: 'cannot be read plainly (a string or comment left open)' };
  // python folds non-ASCII identifiers (NFKC: 𝐞𝐱𝐞𝐜 is exec); JS spells identifiers with escapes.
  if (/[^\x00-\x7f]/.test(scanned.code)) return { commands, capability: 'names written outside ASCII' };
  const capability =
    (language === 'python'
      ? judgePython(scanned.code, scanned.literals)
      : judgeNode(scanned.code, scanned.literals)) ??
    interpolated(language, scanned.literals) ??
    (jsxText === '' ? undefined : judgeNode(jsxText, []));
  return capability === undefined ? { commands } : { commands, capability };
}

/** What the code interpolated into strings can do (python `f"{…}"`, JS `` `${…}` ``): judged as code. */
function interpolated(language: 'python' | 'node', literals: readonly string[]): string | undefined {
  for (const literal of literals) {
    const inside =
      language === 'python' ? /^[a-zA-Z]*[fF][a-zA-Z]*['"]/.test(literal) : /^`[^`]*\$\{/.test(literal);
    if (!inside) continue;
    const found = judgeSessionCode(language, literalText(literal).replace(/[{}]/g, '\n')).capability;
    if (found !== undefined) return found;
  }
  return undefined;
}
