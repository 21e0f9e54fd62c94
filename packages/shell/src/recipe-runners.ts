// Recipe runners whose recipes live in a project file: `just` (a justfile's recipes are shell lines,
// read and judged as a Makefile's are), `task` (Taskfile.yml) and `rake` (a Rakefile is Ruby). A
// recipe that cannot be read — a shebang for another interpreter, a setting that changes the shell
// or loads an environment file, an import, a task file or a Rakefile — is unknown-dynamic, unless the
// command only lists or shows recipes.
import { posix } from 'node:path';
import type { Extractor, Invocation } from './extract.js';
import { canRead, judgeShellText, readScript } from './scripts.js';

export const RECIPE_RUNNERS: ReadonlySet<string> = new Set(['just', 'task', 'go-task', 'rake']);

const FILES: Record<string, readonly string[]> = {
  just: ['justfile', 'Justfile', '.justfile', 'JUSTFILE'],
  task: ['Taskfile.yml', 'Taskfile.yaml', 'taskfile.yml', 'taskfile.yaml'],
  rake: ['Rakefile', 'rakefile', 'Rakefile.rb', 'rakefile.rb'],
};

/** Options that only list, show or check recipes: nothing runs. */
const LISTING: Record<string, RegExp> = {
  just: /^(-l|--list|--summary|-s|--show|--dump|--evaluate|--variables|--groups|--help|-h|--version|-V|-n|--dry-run|--completions|--fmt|--check|--unstable)$/,
  task: /^(-l|--list|-a|--list-all|--summary|-n|--dry|--help|-h|--version|--init|-i)$/,
  rake: /^(-T|--tasks|-P|--prereqs|-D|--describe|-W|--where|-n|--dry-run|--help|-h|--version|-V)$/,
};

/** just's options that take the next word. */
const JUST_VALUES = new Set(
  '--chooser --color --command-color --dotenv-filename --dotenv-path --dump-format --justfile -f --list-heading --list-prefix --set --shell --shell-arg --working-directory -d --timestamp-format --alias-style --list-submodules'.split(
    ' ',
  ),
);

/** just options that change how or where recipes run: what runs cannot be told. */
const JUST_UNKNOWN =
  /^(--shell|--shell-arg|--set|--dotenv-filename|--dotenv-path|--working-directory|-d|--command|-c|--justfile|-f|--one|--choose)(=|$)/;

export function runRecipeRunner(ex: Extractor, inv: Invocation, program: string): void {
  const tool = program === 'go-task' ? 'task' : program;
  const words = inv.argv.slice(1);
  if (words.some((w) => LISTING[tool]?.test(w.split('=')[0] as string))) return;
  if (!canRead(ex, inv)) return;
  const file = findFile(ex, FILES[tool] ?? []);
  if (file === undefined) return;
  if (tool !== 'just') {
    // A Taskfile's commands and a Rakefile's Ruby are not read here.
    readScript(ex, inv, file);
    ex.flag('unresolved_script', `${file}: ${inv.text.slice(0, 160)}`);
    return;
  }
  const text = readScript(ex, inv, file);
  if (text === undefined) return;
  judgeJust(ex, inv, text, words, file);
}

/** The first of the names in the directory the command runs in, or in one above it. */
function findFile(ex: Extractor, names: readonly string[]): string | undefined {
  const dirs = ex.res.dirs;
  const files = ex.res.files;
  if (!files || dirs === null || dirs?.length !== 1) return undefined;
  let dir = dirs[0] as string;
  for (let up = 0; up < 16; up++) {
    const entries = files.readdir(dir);
    const name = names.find((n) => entries?.includes(n));
    if (name !== undefined) return posix.join(dir, name);
    const parent = posix.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

interface Recipe {
  body: string[];
  deps: string[];
  /** The body cannot be read as shell lines (another interpreter, a working directory of its own). */
  opaque: boolean;
}

interface Justfile {
  recipes: Map<string, Recipe>;
  aliases: Map<string, string>;
  first?: string;
  /** Commands run while the file is evaluated (backticks in assignments) and exported names. */
  preamble: string[];
  /** Something changes the shell or the environment, or pulls in other files. */
  opaque: boolean;
}

const HEADER = /^@?([A-Za-z_][\w-]*)((?:\s+[^:]*?)?)\s*:(?!=)(.*)$/;
const SAFE_SHEBANG = /^#!\s*(?:\/usr\/bin\/env\s+(?:-S\s+)?)?(?:\/(?:usr\/)?bin\/)?(sh|bash|dash|zsh)(\s|$)/;

export function parseJustfile(text: string): Justfile {
  const out: Justfile = { recipes: new Map(), aliases: new Map(), preamble: [], opaque: false };
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

/**
 * The shell texts a recipe runs: each line in a shell of its own (as make does), or the whole body as
 * one script under a POSIX shell's `#!`; `@` and `-` prefixes dropped, `{{…}}` an expansion that
 * cannot be told. Undefined for a body another interpreter runs.
 */
function recipeScripts(recipe: Recipe): string[] | undefined {
  const interpolate = (line: string) =>
    line.replace(/\{\{\{\{/g, '{ {').replace(/\{\{[^}]*\}\}/g, '"$__just_interp"');
  const [first] = recipe.body;
  if (first?.startsWith('#!')) {
    if (!SAFE_SHEBANG.test(first)) return undefined;
    return [recipe.body.slice(1).map(interpolate).join('\n')];
  }
  return recipe.body.map((line) => interpolate(line.replace(/^[@-]+/, '')));
}

function judgeJust(ex: Extractor, inv: Invocation, text: string, words: string[], file: string): void {
  const just = parseJustfile(text);
  const unknown = (why: string) => ex.flag('unresolved_script', `${file}: ${why}: ${inv.text.slice(0, 120)}`);
  if (just.opaque) {
    unknown('a setting, import or line that is not read here');
    return;
  }
  const chosen: string[] = [];
  let expectRecipe = true;
  for (let k = 0; k < words.length; k++) {
    const w = words[k] as string;
    if (w === '--') break;
    if (JUST_UNKNOWN.test(w)) {
      unknown(w);
      return;
    }
    if (w.startsWith('-')) {
      if (!w.includes('=') && JUST_VALUES.has(w)) k++;
      continue;
    }
    // `VAR=value` overrides a variable; any other word is a recipe or an argument of the last one.
    if (/^[A-Za-z_][\w-]*=/.test(w)) continue;
    const name = just.aliases.get(w) ?? w;
    if (just.recipes.has(name)) chosen.push(name);
    else if (expectRecipe) {
      unknown(`no recipe ${w}`);
      return;
    }
    expectRecipe = false;
  }
  if (chosen.length === 0 && just.first !== undefined) chosen.push(just.first);
  const preamble = just.preamble.join('\n');
  if (preamble !== '') judgeShellText(ex, inv, preamble, 'just (variables)');
  const seen = new Set<string>();
  const visit = (name: string, depth: number): void => {
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
    const scripts = recipeScripts(recipe);
    if (scripts === undefined) {
      unknown(`recipe ${name} runs another interpreter`);
      return;
    }
    const exported = just.preamble.filter((l) => l.startsWith('export ')).join('\n');
    for (const script of scripts)
      judgeShellText(ex, inv, exported === '' ? script : `${exported}\n${script}`, `just ${name}`);
  };
  for (const name of chosen) visit(name, 0);
}
