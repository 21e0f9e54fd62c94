// `just`: a justfile's recipes are shell lines, read and judged as a Makefile's are. A recipe that
// cannot be read (a shebang for another interpreter, a setting that changes the shell or loads an
// environment file, an import, an interpolation whose text cannot be told) is unknown-dynamic, unless
// the command only lists or shows recipes. (Taskfile.yml and a Rakefile are project code a tool loads,
// listed by loaded-files.ts so that one the session wrote is refused; they are not read here.)
import type { Extractor, Invocation } from './extract.js';
import { findUpward } from './find-upward.js';
import { canRead, judgeShellText, readScript } from './scripts.js';

const JUSTFILES = ['justfile', 'Justfile', '.justfile', 'JUSTFILE'];

/** Options that only list, show or check recipes: nothing runs. */
const LISTING =
  /^(-l|--list|--summary|-s|--show|--dump|--evaluate|--variables|--groups|--help|-h|--version|-V|-n|--dry-run|--completions|--fmt|--check|--unstable)$/;

/** just's options that take the next word. */
const JUST_VALUES = new Set(
  '--chooser --color --command-color --dotenv-filename --dotenv-path --dump-format --justfile -f --list-heading --list-prefix --set --shell --shell-arg --working-directory -d --timestamp-format --alias-style --list-submodules'.split(
    ' ',
  ),
);

/** just options that change how or where recipes run: what runs cannot be told. */
const JUST_UNKNOWN =
  /^(--shell|--shell-arg|--set|--dotenv-filename|--dotenv-path|--working-directory|-d|--command|-c|--justfile|-f|--one|--choose)(=|$)/;

/** `just [OPTIONS] [RECIPE [ARGS…]]…`: the recipes it runs, judged from the justfile it finds. */
export function runJust(ex: Extractor, inv: Invocation): void {
  const words = inv.argv.slice(1);
  if (words.some((w) => LISTING.test(w.split('=')[0] as string))) return;
  if (!canRead(ex, inv)) return;
  const file = findUpward(ex, JUSTFILES);
  if (file === undefined) return;
  // Where the directory cannot be told (`cd "$D" && just`), neither can the justfile.
  if (file === 'unknown') {
    ex.flag('unresolved_script', inv.text);
    return;
  }
  const text = readScript(ex, inv, file);
  if (text === undefined) return;
  judgeJust(ex, inv, text, words, file);
}

interface Param {
  name: string;
  variadic: boolean;
  /** The default's text (a string literal), null for one that is an expression; absent when none. */
  fallback?: string | null;
}

interface Recipe {
  body: string[];
  deps: string[];
  params: Param[];
  /** The body cannot be read as shell lines (another interpreter, a working directory of its own). */
  opaque: boolean;
}

interface Justfile {
  recipes: Map<string, Recipe>;
  aliases: Map<string, string>;
  first?: string;
  /** Commands run while the file is evaluated (backticks in assignments) and exported names. */
  preamble: string[];
  /** Variables whose value is a string literal (null: an expression that cannot be told here). */
  values: Map<string, string | null>;
  /** Something changes the shell or the environment, or pulls in other files. */
  opaque: boolean;
}

const HEADER = /^@?([A-Za-z_][\w-]*)((?:\s+[^:]*?)?)\s*:(?!=)(.*)$/;
const SAFE_SHEBANG = /^#!\s*(?:\/usr\/bin\/env\s+(?:-S\s+)?)?(?:\/(?:usr\/)?bin\/)?(sh|bash|dash|zsh)(\s|$)/;

export function parseJustfile(text: string): Justfile {
  const out: Justfile = {
    recipes: new Map(),
    aliases: new Map(),
    preamble: [],
    values: new Map(),
    opaque: false,
  };
  let current: Recipe | undefined;
  let attributes: string[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i] as string;
    // A trailing backslash joins the next line.
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)}${lines[++i]}`;
    if (/^\s+\S/.test(line)) {
      if (current) current.body.push(line.trim());
      continue;
    }
    if (line.trim() === '') continue;
    current = undefined;
    if (line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      attributes.push(line);
      continue;
    }
    const words = line.split(/\s+/);
    if (words[0] === 'set') {
      // The shell recipes run with, an environment file loaded into them, files read elsewhere.
      if (
        /^(shell|windows-shell|script-interpreter|dotenv-\w+|working-directory|tempdir|windows-powershell)$/.test(
          words[1] ?? '',
        )
      )
        out.opaque = true;
      continue;
    }
    if (
      words[0] === 'import' ||
      words[0] === 'mod' ||
      words[0]?.startsWith('import?') ||
      words[0]?.startsWith('mod?')
    ) {
      out.opaque = true;
      continue;
    }
    if (words[0] === 'alias' && words[2] === ':=') {
      out.aliases.set(words[1] as string, words[3] ?? '');
      continue;
    }
    const assignment = /^(export\s+)?([A-Za-z_][\w-]*)\s*:=\s*(.*)$/.exec(line);
    if (assignment) {
      for (const m of (assignment[3] as string).matchAll(/`([^`]*)`/g)) out.preamble.push(m[1] as string);
      if (/```|'''|"""/.test(assignment[3] as string)) out.opaque = true;
      // An exported variable is in every recipe's environment: `export BASH_ENV := …` is judged so.
      if (assignment[1]) out.preamble.push(`export ${assignment[2]}="$__just_value"`);
      out.values.set(assignment[2] as string, literal((assignment[3] as string).trim()));
      continue;
    }
    const header = HEADER.exec(line);
    if (!header) {
      out.opaque = true;
      continue;
    }
    const name = header[1] as string;
    const deps = (header[3] as string)
      .replace(/#.*$/, '')
      .split(/\s+/)
      .filter((w) => w !== '' && w !== '&&');
    const recipe: Recipe = {
      body: [],
      params: params(header[2] as string),
      // A dependency given arguments (`(build "x")`) or a recipe run elsewhere or by another interpreter.
      deps,
      opaque:
        deps.some((d) => /[()"'{}]/.test(d)) ||
        attributes.some(
          (a) =>
            /^\[\s*(script|extension|working-directory|no-cd|unix|linux|macos|windows)\b/.test(a) &&
            !/^\[\s*(unix|linux|macos)\s*\]/.test(a),
        ),
    };
    attributes = [];
    out.recipes.set(name, recipe);
    out.first ??= name;
    current = recipe;
  }
  return out;
}

/** A string literal's text (`'x'`, `"x"` without escapes); null for any other expression. */
function literal(text: string): string | null {
  const m = /^'([^']*)'$|^"([^"\\]*)"$/.exec(text);
  return m ? (m[1] ?? m[2] ?? '') : null;
}

/** A header's parameters: `name`, `name='default'`, `+name` / `*name` (variadic), `$name` (exported). */
function params(text: string): Param[] {
  const out: Param[] = [];
  for (const m of text.matchAll(
    /([+*]?)\$?([A-Za-z_][\w-]*)(?:=('[^']*'|"(?:[^"\\]|\\.)*"|`[^`]*`|\S+))?/g,
  )) {
    const param: Param = { name: m[2] as string, variadic: m[1] !== '' };
    // A backtick default runs when the argument is left out: an expression, not text.
    if (m[3] !== undefined) param.fallback = literal(m[3]);
    else if (m[1] === '*') param.fallback = '';
    out.push(param);
  }
  return out;
}

/**
 * The shell texts a recipe runs: each line in a shell of its own (as make does), or the whole body as
 * one script under a POSIX shell's `#!`; `@` and `-` prefixes dropped. `{{name}}` is pasted as just
 * pastes it, the argument's or the variable's text (so `$(…)` in it runs); any other interpolation
 * cannot be told. Undefined when something cannot be told, or another interpreter runs the body.
 */
function recipeScripts(
  recipe: Recipe,
  bound: Map<string, string | null>,
  just: Justfile,
): string[] | undefined {
  let known = true;
  const interpolate = (line: string) =>
    line.replace(/\{\{\{\{/g, '{{ ').replace(/\{\{([^}]*)\}\}/g, (_, expr: string) => {
      const name = expr.trim();
      const value = bound.has(name) ? bound.get(name) : just.values.get(name);
      if (value === undefined || value === null) known = false;
      return value ?? '';
    });
  const [first] = recipe.body;
  let scripts: string[];
  if (first?.startsWith('#!')) {
    if (!SAFE_SHEBANG.test(first)) return undefined;
    scripts = [recipe.body.slice(1).map(interpolate).join('\n')];
  } else scripts = recipe.body.map((line) => interpolate(line.replace(/^[@-]+/, '')));
  return known ? scripts : undefined;
}

/** The recipe's parameters bound to the words given (null: a word that cannot be told), defaults for the rest. */
function bind(recipe: Recipe, args: readonly (string | null)[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  let k = 0;
  for (const param of recipe.params) {
    if (param.variadic) {
      const rest = args.slice(k);
      k = args.length;
      out.set(
        param.name,
        rest.length > 0 ? (rest.some((a) => a === null) ? null : rest.join(' ')) : (param.fallback ?? null),
      );
    } else if (k < args.length) out.set(param.name, args[k++] ?? null);
    else out.set(param.name, param.fallback ?? null);
  }
  return out;
}

function judgeJust(ex: Extractor, inv: Invocation, text: string, words: string[], file: string): void {
  const unresolvedWords = inv.unresolved.slice(1);
  const just = parseJustfile(text);
  const unknown = (why: string) => ex.flag('unresolved_script', `${file}: ${why}: ${inv.text.slice(0, 120)}`);
  if (just.opaque) {
    unknown('a setting, import or line that is not read here');
    return;
  }
  const chosen: Array<{ name: string; args: (string | null)[] }> = [];
  let last: { name: string; args: (string | null)[]; room: number } | undefined;
  for (let k = 0; k < words.length; k++) {
    const w = words[k] as string;
    const given = unresolvedWords[k] ? null : w;
    if (w === '--' && !last) break;
    if (JUST_UNKNOWN.test(w)) {
      unknown(w);
      return;
    }
    if (!last && w.startsWith('-')) {
      if (!w.includes('=') && JUST_VALUES.has(w)) k++;
      continue;
    }
    // `VAR=value` overrides a variable (whose text is then unknown here).
    if (!last && /^[A-Za-z_][\w-]*=/.test(w)) {
      just.values.set(w.slice(0, w.indexOf('=')), null);
      continue;
    }
    // A word is the last recipe's argument while it has room for one, else the next recipe.
    if (last && last.room > 0) {
      last.args.push(given);
      last.room--;
      continue;
    }
    const name = just.aliases.get(w) ?? w;
    const recipe = just.recipes.get(name);
    if (recipe === undefined || given === null) {
      unknown(`no recipe ${w}`);
      return;
    }
    last = {
      name,
      args: [],
      room: recipe.params.some((p) => p.variadic) ? Number.POSITIVE_INFINITY : recipe.params.length,
    };
    chosen.push(last);
  }
  if (chosen.length === 0 && just.first !== undefined) chosen.push({ name: just.first, args: [] });
  const preamble = just.preamble.join('\n');
  if (preamble !== '') judgeShellText(ex, inv, preamble, 'just (variables)');
  const seen = new Set<string>();
  const visit = (name: string, depth: number, args: readonly (string | null)[] = []): void => {
    if (seen.has(name) || depth > 16) return;
    seen.add(name);
    const recipe = just.recipes.get(name);
    if (recipe === undefined) {
      unknown(`no recipe ${name}`);
      return;
    }
    if (recipe.opaque) {
      unknown(`recipe ${name}`);
      return;
    }
    for (const dep of recipe.deps) visit(dep, depth + 1);
    const scripts = recipeScripts(recipe, bind(recipe, args), just);
    if (scripts === undefined) {
      unknown(`recipe ${name}: an interpolation or interpreter not read here`);
      return;
    }
    const exported = just.preamble.filter((l) => l.startsWith('export ')).join('\n');
    for (const script of scripts)
      judgeShellText(ex, inv, exported === '' ? script : `${exported}\n${script}`, `just ${name}`);
  };
  for (const { name, args } of chosen) visit(name, 0, args);
}
