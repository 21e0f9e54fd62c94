// Is a piece of interpreter code plainly read-only? Deliberately conservative: string literals and
// comments are set aside, and every remaining identifier must come from a small vocabulary of
// printing, pure computation and reading the file system (or be a name the code itself declares).
// Anything else — os.remove, a backquote, `system`, `open`, an unknown call — makes the code unknown-dynamic.
import { scanLiterals } from './code-literals.js';
import type { Language } from './programs.js';
import { callArguments } from './python-files.js';
import { pythonOwnNames } from './python-names.js';

const COMMON =
  'true false null none undefined nil if else elif for in of while and or not is return new typeof';

const VOCABULARY: Record<Language, ReadonlySet<string>> = {
  python: words(
    `${COMMON} print len str int float bool range sum min max sorted reversed list dict tuple set abs round repr format ` +
      'enumerate zip map filter any all isinstance True False None lambda import from as sys json math re datetime ' +
      'time platform string textwrap decimal fractions statistics itertools functools collections base64 hashlib uuid ' +
      'version version_info argv dumps loads sqrt pi join split strip upper lower replace items keys values get now ' +
      'today isoformat encode decode hexdigest sha256 md5 b64encode b64decode floor ceil load stdin stdout stderr ' +
      'write read readline readlines path executable platform prefix maxsize python_version exit ' +
      'count find rfind index rindex startswith endswith splitlines rstrip lstrip partition rpartition zfill ' +
      'ljust rjust center title capitalize casefold isdigit isalpha isalnum isspace isupper islower append ' +
      'extend insert pop sort copy update setdefault sub subn search match fullmatch findall finditer group ' +
      'groups span start end escape DOTALL MULTILINE IGNORECASE VERBOSE M S I X ASCII tomllib buffer ' +
      'assert pass break continue try except def class with yield del global nonlocal async await ' +
      'finally raise ValueError KeyError IndexError Exception SystemExit ' +
      // os, os.path, pathlib and glob: where the process is and what the file system holds, read only
      // (their writers, removers and runners — remove, rename, system, write_text — are not here).
      'os pathlib Path glob fnmatch getcwd environ getenv listdir walk scandir lstat exists isdir isfile ' +
      'islink isabs abspath realpath relpath normpath expanduser expandvars basename dirname splitext getsize ' +
      'getmtime cpu_count sep pathsep linesep name cwd home resolve absolute parent parents stem suffix ' +
      'suffixes parts is_file is_dir is_symlink iterdir rglob read_text read_bytes st_size st_mtime joinpath ' +
      'as_posix with_suffix with_name',
  ),
  node: words(
    `${COMMON} console log error info warn debug table JSON stringify parse Math Number String Boolean Object Array ` +
      'keys values entries Date now toISOString const let var function process version versions platform arch argv ' +
      'env length map filter reduce join split trim toUpperCase toLowerCase includes floor ceil round max min abs ' +
      'sqrt PI random toString toFixed parseInt parseFloat from isArray export stdout stderr write node cwd ' +
      'exit hostname cpus totalmem uptime EOL sep basename dirname extname ' +
      // fs's readers (its writers and removers are not here) and path's pure functions.
      'fs readFileSync readdirSync existsSync statSync lstatSync realpathSync isFile isDirectory ' +
      'isSymbolicLink size mtime mtimeMs resolve relative normalize isAbsolute ' +
      // package.json's fields, read from a required JSON file: data, not functions of anything.
      'name description main module types type bin scripts dependencies devDependencies peerDependencies ' +
      'optionalDependencies engines workspaces exports files private license keywords repository author ' +
      'packageManager',
  ),
  perl: words(
    `${COMMON} print say printf my our length join split map grep sort keys values scalar uc lc ucfirst lcfirst sprintf ` +
      'exists defined foreach unless last next reverse abs int sqrt time localtime gmtime chomp strict warnings ' +
      'ARGV ENV STDIN STDOUT STDERR',
  ),
  ruby: words(
    `${COMMON} puts print p pp require json to_s to_i to_f to_json length size map each select reject join split ` +
      'strip upcase downcase reverse sort keys values inspect JSON generate parse Time now ENV ARGV do end def ' +
      'sum count first last min max uniq sort_by each_with_index with_index to_a chars lines times upto round ' +
      'RUBY_VERSION RUBY_PLATFORM',
  ),
  php: words(
    `${COMMON} echo print printf var_dump json_encode json_decode strlen count implode explode phpversion`,
  ),
  lua: words(`${COMMON} print string format math local tostring tonumber pairs ipairs`),
  awk: words(
    `${COMMON} BEGIN END print printf NR NF FS OFS RS ORS FILENAME length substr index split sub gsub match ` +
      'tolower toupper sprintf int sqrt exp log sin cos next exit',
  ),
  other: new Set(),
};

const SAFE_PYTHON_MODULES = new Set(
  'sys json math re datetime time platform string textwrap decimal fractions statistics random itertools functools collections base64 hashlib uuid os pathlib glob fnmatch tomllib'.split(
    ' ',
  ),
);

/** Node modules whose functions only compute or describe the machine (fs: only its readers are in the vocabulary). */
const SAFE_NODE_REQUIRE =
  /\brequire\(\s*(['"])(?:(?:node:)?(?:os|path|util|url|querystring|fs)|\.{1,2}\/[\w./-]*\.json)\1\s*\)/g;
/**
 * The same modules imported as an ES module (`import { readFileSync } from 'node:fs'`, `import path
 * from 'node:path'`, `import * as os from 'os'`): their names are bound as written, never renamed
 * with `as` (a vocabulary name bound to another function is refused wherever it is bound).
 */
const SAFE_NODE_IMPORT =
  /^[ \t]*import\s+([A-Za-z_$][\w$]*|\*\s+as\s+[A-Za-z_$][\w$]*|\{\s*[A-Za-z_$][\w$]*(?:\s*,\s*[A-Za-z_$][\w$]*)*\s*,?\s*\})\s+from\s+(['"])(?:node:)?(?:os|path|util|url|querystring|fs)\2[ \t]*;?[ \t]*$/gm;

/** A safe import read as the `require` it stands for: `const path = require('path')`, `const { a } = …`. */
const asRequire = (_: string, binding: string): string => `const ${binding.replace(/^\*\s+as\s+/, '')} = "";`;

function words(text: string): ReadonlySet<string> {
  return new Set(text.split(/\s+/).filter(Boolean));
}

/** Python that changes where imports come from (reading `sys.path` is fine). */
const PYTHON_IMPORT_STEERING =
  /\bsys\s*\.\s*(meta_path|path_hooks|modules)\b|\bsys\s*\.\s*path\s*(\.\s*(insert|append|extend|remove|pop|clear)\b|\[[^\]]*\]\s*=|[+*]?=(?!=))/;

/** Names that run, load or open code or files, whatever the code seems to assign to them. */
const NEVER_DECLARED = words(
  'exec eval compile open execfile input breakpoint getattr setattr delattr globals locals vars help ' +
    'require import Function process system spawn fork send public_send instance_eval class_eval do ' +
    'load loadstring dofile loadfile unlink rmdir mkdir rename chmod chown symlink link kill syscall ' +
    'Kernel subprocess shutil child_process',
);

/**
 * Calls through a value rather than a name: a string key (`process["getBuiltinModule"](…)`, a
 * string called (`("sys"."tem")(…)`), a call's result called, and per language what reaches any
 * function by a computed name (JS and Lua string keys, PHP variable functions, Perl `&{…}`).
 */
const CALL_THROUGH_VALUE = /\[\s*""\s*\]\s*\(|""\s*\(|\)\s*\(|\]\s*\(/;
const COMPUTED_ACCESS: Partial<Record<Language, RegExp>> = {
  node: /\[\s*""/,
  lua: /\[\s*""/,
  php: /\$\s*\w+\s*\(|\$\s*\{/,
};
/** Perl's calls through a reference or a symbolic name, read before its sigils are set aside. */
const PERL_COMPUTED_CALL = /&\s*[{$]|->\s*[($]/;
/** A name called: followed by `(` (in Ruby and Perl a call may also be a bare word, judged as a name). */
const CALLED = /([A-Za-z_$][\w$]*)\s*\(/g;
/** An attribute or method name: after `.`, `->` or `::`. */
const ATTRIBUTE = /(?:\.|->|::)\s*([A-Za-z_$][\w$]*)/g;

/**
 * A JS object key followed by a name (`{kill: log}`): in a pattern that binds the property to the
 * name. A key followed by a value or a nested object (`{a: 1}`, `{age: {$gt: 3}}`) is data; a nested
 * pattern ends in such a key itself.
 */
const PATTERN_KEY = /([A-Za-z_$][\w$]*)\s*:(?!:)\s*(?!(?:true|false|null|undefined)(?![\w$]))(?=[A-Za-z_$])/g;

/** What file objects do, allowed where every `open` names a literal path (python-files.ts). */
const FILE_VOCABULARY = words('open close with seek tell truncate flush writelines');

/**
 * True when the code is plainly read-only (prints or computes, touches nothing). `files`: the code's
 * `open` calls were all read (python-files.ts) and their writes are judged as writes, so it may use them.
 */
/** What mongosh's read-only calls name, beside node's vocabulary. */
const MONGO_READS = words(
  'db getCollection getSiblingDB getName getCollectionNames getCollectionInfos getIndexes stats ' +
    'serverStatus hostInfo hello isMaster version find findOne count countDocuments estimatedDocumentCount ' +
    'distinct aggregate toArray limit skip sort pretty explain itcount size hasNext next forEach ' +
    'projection batchSize printjson print printjsononeline ObjectId ISODate NumberLong NumberInt Decimal128 ' +
    'UUID getUsers getRoles currentOp listCollections show dbs collections use',
);
/** `db.NAME.` names a collection unless NAME is one of the database's own methods. */
const COLLECTION =
  /\bdb\s*\.\s*(?!getCollection\b|getSiblingDB\b|getName\b|getCollectionNames\b|getCollectionInfos\b|stats\b|serverStatus\b|hostInfo\b|hello\b|isMaster\b|version\b|getUsers\b|getRoles\b|currentOp\b)[A-Za-z_$][\w$]*(?=\s*\.)/g;

/**
 * Whether mongosh code (JavaScript) only reads: node's read-only rules with the reads above, a
 * collection named as `db.NAME`, and no aggregation stage that writes (`$out`, `$merge`).
 */
export function isReadOnlyMongo(text: string): boolean {
  if (/\$(out|merge)\b/.test(text)) return false;
  return isReadOnlyCode('node', text.replace(COLLECTION, 'db.getCollection("")'), false, MONGO_READS);
}

export function isReadOnlyCode(
  language: Language,
  text: string,
  files = false,
  /** Names a host program adds to the language's vocabulary (mongosh's reads). */
  extra?: ReadonlySet<string>,
): boolean {
  if (language === 'other') return false;
  if (text.length > 4096) return false;
  // A bare carriage return ends a line (and a comment) for python, JS, php and lua.
  if (text.includes('\r')) return false;
  // `require('os')` and the like only compute; any other require loads what can act.
  const code =
    language === 'node' ? text.replace(SAFE_NODE_IMPORT, asRequire).replace(SAFE_NODE_REQUIRE, ' ""') : text;
  // Backquotes run shell commands in perl and ruby; %x / qx as well.
  if ((language === 'perl' || language === 'ruby') && /`|%x|\bqx\b/.test(code)) return false;
  // Perl runs code inside strings and regexes: `@{[ … ]}`, `${\ … }`, `(?{ … })`, and s///e.
  if (language === 'perl' && /@\{|\$\{\s*\\|\(\?\??\{/.test(code)) return false;
  // awk acts on the world only through system(), getline, pipes and output redirection (readOnlyAwk
  // refuses them) or a gawk extension (@load): whatever else it names only computes.
  if (language === 'awk') return readOnlyAwk(code) && !/(^|[^\w"'])@\w/.test(code);
  if (language === 'python' && !safePythonImports(code)) return false;
  // Where python looks for modules is code too: `sys.path.insert(0, '.')` then `import json`.
  if (language === 'python' && PYTHON_IMPORT_STEERING.test(code)) return false;
  // Code interpolated into strings (ruby "#{…}", python f'{…}', node `${…}`) is code like the rest.
  const outer = stripLiterals(code, language);
  if (outer === null) return false;
  // php runs shell text in backquotes, and calls inside "{$obj->f()}" / "${…}" interpolations.
  if (language === 'php' && (outer.code.includes('`') || outer.code.includes('<<<'))) return false;
  if (language === 'php' && outer.literals.some((l) => l.startsWith('"') && /\{\$|\$\{/.test(l)))
    return false;
  const interpolated = interpolations(language, outer.literals);
  if (interpolated === null) return false;
  const inner = interpolated.map((c) => stripLiterals(c, language));
  if (inner.some((c) => c === null)) return false;
  const stripped = `${outer.code}\n${inner.map((c) => c?.code).join('\n')}`;
  // Identifiers are compared as written; python folds non-ASCII ones (NFKC: 𝐞𝐱𝐞𝐜 is exec).
  if (/[^\x00-\x7f]/.test(stripped)) return false;
  const base = VOCABULARY[language];
  const vocabulary =
    extra === undefined ? base : { has: (name: string) => base.has(name) || extra.has(name) };
  if (CALL_THROUGH_VALUE.test(stripped) || COMPUTED_ACCESS[language]?.test(stripped)) return false;
  if (language === 'perl' && PERL_COMPUTED_CALL.test(scanLiteralsCode(code, language))) return false;
  // An attribute is the vocabulary's, never a name the code declares: `os = 0` then `uuid.os.popen`.
  for (const m of stripped.matchAll(ATTRIBUTE)) {
    const name = m[1] as string;
    if (!vocabulary.has(name) && !(files && FILE_VOCABULARY.has(name))) return false;
  }
  const declared = declaredNames(stripped);
  // Python: a bare name neither imported, declared nor a builtin raises NameError, or names what the
  // code defines from its vetted rest (python-names.ts).
  const ownName = language === 'python' ? pythonOwnNames(code) : null;
  const own = (name: string) => ownName?.(name) === true && !declared.has(name) && !NEVER_DECLARED.has(name);
  const bare = (at: number) => !/(\.|->|::)\s*$/.test(stripped.slice(0, at));
  // A call is of a vocabulary name, never of one the code declares: a parameter or a variable may
  // hold any function (`Object.values(process).map(f => f("child_process"))`, `const f = process.exit`).
  for (const m of stripped.matchAll(CALLED)) {
    const name = m[1] as string;
    if (!vocabulary.has(name) && !(files && FILE_VOCABULARY.has(name)) && !(own(name) && bare(m.index)))
      return false;
  }
  if (language === 'node' || language === 'python') {
    // A vocabulary name the code binds to something else (`const log = …; log(1)`, python's `from os
    // import replace as print`) is no longer the function the vocabulary means: calling it is calling
    // whatever it was given.
    for (const m of stripped.matchAll(CALLED))
      if (bare(m.index) && declared.has(m[1] as string)) return false;
  }
  if (language === 'node') {
    // A key given a name rather than a value is a destructuring that reads the property (`const
    // {kill: log} = process`): the key is an attribute, and the vocabulary's like every other.
    for (const m of stripped.matchAll(PATTERN_KEY)) if (!vocabulary.has(m[1] as string)) return false;
    // A function handed over as a value is called by what receives it (`.map(e[1])` after
    // `Object.entries(fs)`): a callback must be a function written here, or a vocabulary name.
    if (!callbacksWrittenHere(stripped, vocabulary, declared)) return false;
  }
  // os.replace and Path.replace move files, Path.copy copies them: beside os or pathlib, `.replace`
  // and `.copy` are read as theirs unless called on a string literal.
  if (
    language === 'python' &&
    /\b(os|pathlib|Path)\b/.test(stripped) &&
    /(?<!"")\s*\.\s*(replace|copy)\s*\(/.test(stripped)
  )
    return false;
  // Object keys (`{a: 1}`) and keyword arguments (`indent=2`) name data, not code: drop them first.
  const identifiers =
    stripped
      .replace(/[A-Za-z_$][\w$]*\s*:(?!:)/g, ' ')
      .replace(/([(,]\s*)[A-Za-z_]\w*\s*=(?!=)/g, '$1')
      .match(/[A-Za-z_$][\w$]*/g) ?? [];
  for (const id of identifiers) {
    if (vocabulary.has(id) || (files && FILE_VOCABULARY.has(id))) continue;
    if (own(id)) continue;
    // A name the code assigns is its own, unless it is one that runs or loads code: `exec = None`
    // in a branch not taken, or `except E as exec`, leaves the builtin in place.
    if (!declared.has(id) || NEVER_DECLARED.has(id) || /^__\w+__$/.test(id)) return false;
  }
  return true;
}

/** Where a function passed as a value is called: the callback's argument position, per method. */
const CALLBACK_AT: Readonly<Record<string, number>> = {
  map: 0,
  filter: 0,
  reduce: 0,
  forEach: 0,
  sort: 0,
  from: 1,
  parse: 1,
  stringify: 1,
};
const FUNCTION_LITERAL = /^(async\s+)?(function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)/;
const PLAIN_VALUE = /^(null|undefined|""|-?\d[\d.]*|\[[^\]]*\])$/;

/** Every callback handed to a method that calls it is a function literal, a plain value, or a vocabulary name. */
function callbacksWrittenHere(
  code: string,
  vocabulary: { has(name: string): boolean },
  declared: Set<string>,
): boolean {
  for (const m of code.matchAll(/\b(map|filter|reduce|forEach|sort|from|parse|stringify)\s*\(/g)) {
    const args = callArguments(code, (m.index as number) + m[0].length);
    if (args === null) return false;
    const arg = args.list[CALLBACK_AT[m[1] as string] as number];
    if (arg === undefined || arg === '') continue;
    if (FUNCTION_LITERAL.test(arg) || PLAIN_VALUE.test(arg)) continue;
    if (/^[A-Za-z_$][\w$]*$/.test(arg) && vocabulary.has(arg) && !declared.has(arg)) continue;
    return false;
  }
  return true;
}

function readOnlyAwk(code: string): boolean {
  const stripped = stripLiterals(code, 'awk')?.code;
  if (stripped === undefined) return false;
  if (/\bsystem\b|\bgetline\b|\|/.test(stripped)) return false;
  return !/\bprintf?\b[^;{}]*>/.test(stripped);
}

function safePythonImports(code: string): boolean {
  // Continuation lines join first; `import a as b, c` names a and c; `from X import …` loads X.
  const joined = code.replace(/\\\r?\n/g, ' ');
  const safe = (name: string) =>
    /^[A-Za-z_][\w.]*$/.test(name) && SAFE_PYTHON_MODULES.has(name.split('.')[0] as string);
  for (const m of joined.matchAll(/\bfrom\s+(\S+)\s+import\b/g)) if (!safe(m[1] as string)) return false;
  for (const m of joined.matchAll(/\bimport\b([^\n;]*)/g)) {
    if (/\bfrom\s+\S+\s+$/.test(joined.slice(0, m.index))) continue;
    const names = (m[1] as string).replace(/#.*$/, '').split(',');
    for (const part of names) if (!safe(part.trim().split(/\s+/)[0] ?? '')) return false;
  }
  return true;
}

/** Names the code declares itself (`x = …`, `const x`, `my $x`, `for x in`). */
function declaredNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(
    /(?:\b(?:const|let|var|my|our|local|for)\s+[$@%]?|^|[;\n{]\s*[$@%]?)([A-Za-z_]\w*)\s*(?:(?:\*\*|\/\/|[-+*/%.|&^])?=(?!=)|\bin\b|\bof\b)/g,
  )) {
    names.add(m[1] as string);
  }
  // `with … as f`, `except E as e`: python binds the name.
  for (const m of code.matchAll(/\bas\s+([A-Za-z_]\w*)/g)) names.add(m[1] as string);
  // Block parameters: ruby `{ |a, b| … }`, and arrow functions `(a, b) =>` / `a =>`.
  for (const m of code.matchAll(/\|([\w\s,]+)\||\(([\w\s,]*)\)\s*=>|\b(\w+)\s*=>/g)) {
    for (const name of (m[1] ?? m[2] ?? m[3] ?? '').split(',')) if (name.trim()) names.add(name.trim());
  }
  return names;
}

/**
 * The code inside a language's string interpolations, or null when it cannot be told apart (a brace
 * inside an interpolation, a triple-quoted f-string). Ruby `"…#{code}…"`, python `f'…{code}…'`,
 * node `` `…${code}…` ``.
 */
function interpolations(language: Language, literals: readonly string[]): string[] | null {
  const bodies: string[] = [];
  for (const literal of literals) {
    if (language === 'ruby' && literal.startsWith('"')) bodies.push(literal);
    else if (language === 'node' && literal.startsWith('`')) bodies.push(literal);
    else if (language === 'python') {
      const prefix = /^[A-Za-z]*/.exec(literal)?.[0] ?? '';
      // f-strings, and 3.14's t-strings.
      if (!/[fFtT]/.test(prefix)) continue;
      if (/^[A-Za-z]*("""|''')/.test(literal)) return null;
      // `{{` in an f-string is a literal brace.
      bodies.push(literal.replace(/\{\{|\}\}/g, ''));
    }
  }
  const open = language === 'ruby' ? '#{' : language === 'node' ? '${' : '{';
  const out: string[] = [];
  for (const body of bodies) {
    let at = body.indexOf(open);
    while (at >= 0) {
      const start = at + open.length;
      const end = body.indexOf('}', start);
      if (end < 0) return null;
      const inner = body.slice(start, end);
      if (inner.includes('{')) return null;
      out.push(inner);
      at = body.indexOf(open, end + 1);
    }
  }
  return out;
}

/**
 * The code without its string literals, regex literals and comments (found left to right as the
 * language reads them, code-literals.ts), and the literals; null when the scan cannot vouch for it.
 */
/** The code with its literals set aside, its sigils kept. */
function scanLiteralsCode(code: string, language: Language): string {
  return scanLiterals(code, language).code;
}

function stripLiterals(code: string, language: Language): { code: string; literals: string[] } | null {
  const scanned = scanLiterals(code, language);
  if (scanned.unsure) return null;
  let out = scanned.code;
  // Perl sigils: `$x`, `@a`, `%h`, `$1`, `$.` are variables, not calls.
  if (language === 'perl') out = out.replace(/[$@%](?:\w+|[&`'+!/\\,;.|])/g, ' ');
  if (language === 'awk') out = out.replace(/\$\w+/g, ' ');
  return { code: out, literals: scanned.literals };
}
