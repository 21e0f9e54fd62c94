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
      'today isoformat encode decode hexdigest sha256 md5 b64encode b64decode floor ceil',
  ),
  node: words(
    `${COMMON} console log error info warn debug table JSON stringify parse Math Number String Boolean Object Array ` +
      'keys values entries Date now toISOString const let var function process version versions platform arch argv ' +
      'env length map filter reduce join split trim toUpperCase toLowerCase includes floor ceil round max min abs ' +
      'sqrt PI random toString toFixed parseInt parseFloat from isArray export',
  ),
  perl: words(
    `${COMMON} print say printf my our length join split map grep sort keys values scalar uc lc ucfirst lcfirst sprintf ` +
      'exists defined foreach unless last next reverse abs int sqrt time localtime gmtime chomp strict warnings ' +
      'ARGV ENV STDIN STDOUT STDERR',
  ),
  ruby: words(
    `${COMMON} puts print p pp require json to_s to_i to_f to_json length size map each select reject join split ` +
      'strip upcase downcase reverse sort keys values inspect JSON generate parse Time now ENV ARGV do end def',
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

function words(text: string): ReadonlySet<string> {
  return new Set(text.split(/\s+/).filter(Boolean));
}

/** True when the code is plainly read-only (prints or computes, touches nothing). */
export function isReadOnlyCode(language: Language, code: string): boolean {
  if (language === 'other') return false;
  if (code.length > 4096) return false;
  // Backquotes run shell commands in perl and ruby; %x / qx as well.
  if ((language === 'perl' || language === 'ruby') && /`|%x|\bqx\b/.test(code)) return false;
  if (language === 'node' && /`[^`]*\$\{/.test(code)) return false;
  if (language === 'awk' && !readOnlyAwk(code)) return false;
  if (language === 'python' && !safePythonImports(code)) return false;
  const stripped = stripLiterals(code, language);
  const vocabulary = VOCABULARY[language];
  const declared = declaredNames(stripped);
  // Object keys (`{a: 1}`) name data, not code: drop them before the vocabulary check.
  const identifiers = stripped.replace(/[A-Za-z_$][\w$]*\s*:(?!:)/g, ' ').match(/[A-Za-z_$][\w$]*/g) ?? [];
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
    /(?:\b(?:const|let|var|my|our|local|for)\s+[$@%]?|^|[;\n{]\s*[$@%]?)([A-Za-z_]\w*)\s*(?:=(?!=)|\bin\b|\bof\b)/g,
  )) {
    names.add(m[1] as string);
  }
  // Block parameters: ruby `{ |a, b| … }`, and arrow functions `(a, b) =>` / `a =>`.
  for (const m of code.matchAll(/\|([\w\s,]+)\||\(([\w\s,]*)\)\s*=>|\b(\w+)\s*=>/g)) {
    for (const name of (m[1] ?? m[2] ?? m[3] ?? '').split(',')) if (name.trim()) names.add(name.trim());
  }
  return names;
}

/** Remove string literals, regex literals (awk) and comments. */
function stripLiterals(code: string, language: Language): string {
  let out = code.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ""');
  if (language === 'awk') out = out.replace(/\/(?:[^/\\\n]|\\.)+\//g, ' ');
  if (language === 'node' || language === 'php')
    out = out.replace(/\/\/[^\n]*/g, ' ').replace(/`[^`]*`/g, ' ""');
  else out = out.replace(/(^|\s)#[^\n]*/g, ' ');
  // Perl sigils: `$x`, `@a`, `%h` are variables, not calls.
  if (language === 'perl') out = out.replace(/[$@%]([A-Za-z_]\w*)/g, ' ');
  if (language === 'awk') out = out.replace(/\$\w+/g, ' ');
  return out;
}
