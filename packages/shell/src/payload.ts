// Is a piece of interpreter code plainly read-only? Deliberately conservative: string literals and
// comments are set aside, and every remaining identifier must come from a small vocabulary of
// printing and pure computation (or be a name the code itself declares). Anything else — an import
// of os, a backquote, `system`, `open`, an unknown call — makes the code unknown-dynamic.
import type { Language } from './programs.js';

const COMMON =
  'true false null none undefined nil if else elif for in of while and or not is return new typeof';

const VOCABULARY: Record<Language, ReadonlySet<string>> = {
  python: words(
    `${COMMON} print len str int float bool range sum min max sorted reversed list dict tuple set abs round repr format ` +
      'enumerate zip map filter any all isinstance True False None lambda import from as sys json math re datetime ' +
      'time platform string textwrap decimal fractions statistics itertools functools collections base64 hashlib uuid ' +
      'version version_info argv dumps loads sqrt pi join split strip upper lower replace items keys values get now ' +
      'today isoformat encode decode hexdigest sha256 md5 b64encode b64decode floor ceil load stdin stdout stderr ' +
      'write read readline readlines path executable platform prefix maxsize python_version exit',
  ),
  node: words(
    `${COMMON} console log error info warn debug table JSON stringify parse Math Number String Boolean Object Array ` +
      'keys values entries Date now toISOString const let var function process version versions platform arch argv ' +
      'env length map filter reduce join split trim toUpperCase toLowerCase includes floor ceil round max min abs ' +
      'sqrt PI random toString toFixed parseInt parseFloat from isArray export stdout stderr write node cwd ' +
      'exit hostname cpus totalmem uptime EOL sep basename dirname extname',
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
  'sys json math re datetime time platform string textwrap decimal fractions statistics random itertools functools collections base64 hashlib uuid'.split(
    ' ',
  ),
);

/** Node modules whose functions only compute or describe the machine. */
const SAFE_NODE_REQUIRE = /\brequire\(\s*(['"])(?:node:)?(os|path|util|url|querystring)\1\s*\)/g;

function words(text: string): ReadonlySet<string> {
  return new Set(text.split(/\s+/).filter(Boolean));
}

/** True when the code is plainly read-only (prints or computes, touches nothing). */
export function isReadOnlyCode(language: Language, text: string): boolean {
  if (language === 'other') return false;
  if (text.length > 4096) return false;
  // `require('os')` and the like only compute; any other require loads what can act.
  const code = language === 'node' ? text.replace(SAFE_NODE_REQUIRE, ' ""') : text;
  // Backquotes run shell commands in perl and ruby; %x / qx as well.
  if ((language === 'perl' || language === 'ruby') && /`|%x|\bqx\b/.test(code)) return false;
  // Perl runs code inside strings and regexes: `@{[ … ]}`, `${\ … }`, `(?{ … })`, and s///e.
  if (language === 'perl' && /@\{|\$\{\s*\\|\(\?\??\{/.test(code)) return false;
  // awk acts on the world only through system(), getline, pipes and output redirection (readOnlyAwk
  // refuses them) or a gawk extension (@load): whatever else it names only computes.
  if (language === 'awk') return readOnlyAwk(code) && !/(^|[^\w"'])@\w/.test(code);
  if (language === 'python' && !safePythonImports(code)) return false;
  // Code interpolated into strings (ruby "#{…}", python f'{…}', node `${…}`) is code like the rest.
  const interpolated = interpolations(language, code);
  if (interpolated === null) return false;
  const stripped = `${stripLiterals(code, language)}\n${interpolated.map((c) => stripLiterals(c, language)).join('\n')}`;
  const vocabulary = VOCABULARY[language];
  const declared = declaredNames(stripped);
  // Object keys (`{a: 1}`) and keyword arguments (`indent=2`) name data, not code: drop them first.
  const identifiers =
    stripped
      .replace(/[A-Za-z_$][\w$]*\s*:(?!:)/g, ' ')
      .replace(/([(,]\s*)[A-Za-z_]\w*\s*=(?!=)/g, '$1')
      .match(/[A-Za-z_$][\w$]*/g) ?? [];
  for (const id of identifiers) {
    if (!vocabulary.has(id) && !declared.has(id)) return false;
  }
  return true;
}

function readOnlyAwk(code: string): boolean {
  const stripped = stripLiterals(code, 'awk');
  if (/\bsystem\b|\bgetline\b|\|/.test(stripped)) return false;
  return !/\bprintf?\b[^;{}]*>/.test(stripped);
}

function safePythonImports(code: string): boolean {
  for (const m of code.matchAll(/\b(?:import|from)\s+([\w.]+(?:\s*,\s*[\w.]+)*)/g)) {
    for (const name of (m[1] as string).split(/\s*,\s*/)) {
      if (!SAFE_PYTHON_MODULES.has(name.split('.')[0] as string)) return false;
    }
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
  // Block parameters: ruby `{ |a, b| … }`, and arrow functions `(a, b) =>` / `a =>`.
  for (const m of code.matchAll(/\|([\w\s,]+)\||\(([\w\s,]*)\)\s*=>|\b(\w+)\s*=>/g)) {
    for (const name of (m[1] ?? m[2] ?? m[3] ?? '').split(',')) if (name.trim()) names.add(name.trim());
  }
  return names;
}

/** Quoted string literals, scanned left to right as stripLiterals removes them. */
const QUOTED = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g;

/**
 * The code inside a language's string interpolations, or null when it cannot be told apart (a brace
 * inside an interpolation, a triple-quoted f-string). Ruby `"…#{code}…"`, python `f'…{code}…'`,
 * node `` `…${code}…` ``.
 */
function interpolations(language: Language, code: string): string[] | null {
  const bodies: string[] = [];
  if (language === 'ruby') {
    for (const m of code.matchAll(QUOTED)) if (m[0].startsWith('"')) bodies.push(m[0]);
  } else if (language === 'python') {
    if (/(^|[^\w])[rRbB]?[fF][rRbB]?("""|''')/.test(code)) return null;
    for (const m of code.matchAll(QUOTED)) {
      const prefix = /(?:^|[^\w])([A-Za-z]{1,2})$/.exec(code.slice(Math.max(0, m.index - 3), m.index))?.[1];
      // `{{` in an f-string is a literal brace.
      if (prefix && /[fF]/.test(prefix)) bodies.push(m[0].replace(/\{\{|\}\}/g, ''));
    }
  } else if (language === 'node') {
    for (const m of code.replace(QUOTED, ' ""').matchAll(/`[^`]*`/g)) bodies.push(m[0]);
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
 * Perl match, substitution and transliteration literals where perl reads a term (`if /x/`,
 * `$s =~ s/a/b/g`): the pattern is data. After a value `/` divides, and stays code. A substitution
 * with the `e` flag runs its replacement and is left as code.
 */
const PERL_REGEX =
  /(^|[(,;{!]|=~|!~|&&|\|\||\b(?:and|or|not|if|unless|while|until|split|grep|return))(\s*)(?:(?:s|tr|y)\/(?:[^/\\\n]|\\.)*\/(?:[^/\\\n]|\\.)*\/([a-z]*)|(?:m|qr)?\/(?:[^/\\\n]|\\.)+\/[a-z]*)/g;

/** Remove string literals, regex literals (awk, perl) and comments. */
function stripLiterals(code: string, language: Language): string {
  let out = code;
  if (language === 'perl')
    out = out.replace(PERL_REGEX, (whole, before: string, space: string, flags?: string) =>
      flags?.includes('e') ? whole : `${before}${space} ""`,
    );
  // A python string prefix (f, r, b, u, rb, …) belongs to the literal.
  if (language === 'python') out = out.replace(/(^|[^\w])[rRbBuUfF]{1,2}(?=["'])/g, '$1');
  out = out.replace(QUOTED, ' ""');
  if (language === 'awk') out = out.replace(/\/(?:[^/\\\n]|\\.)+\//g, ' ');
  if (language === 'node' || language === 'php')
    out = out.replace(/\/\/[^\n]*/g, ' ').replace(/`[^`]*`/g, ' ""');
  else out = out.replace(/(^|\s)#[^\n]*/g, ' ');
  // Perl sigils: `$x`, `@a`, `%h`, `$1`, `$.` are variables, not calls.
  if (language === 'perl') out = out.replace(/[$@%](?:\w+|[&`'+!/\\,;.|])/g, ' ');
  if (language === 'awk') out = out.replace(/\$\w+/g, ' ');
  return out;
}
