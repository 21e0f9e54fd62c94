// Static expansion of words: literal parts are taken as they are, positional parameters of an
// `sh -c` string are bound to the arguments given after it, and a command substitution whose
// output is statically known (`$(printf rd)`, `$(echo x)`, `$(cat <<EOF …)`) is replaced by it.
// Anything else stays unresolved and keeps its source text.
import type { Command, Script, Word, WordPart } from './ast.js';
import { BraceLimit, braceExpand } from './brace.js';
import { escapeGlob, hasGlob } from './glob.js';
import type { Resolver } from './resolve.js';

/** Variables known while walking one script: positional parameters and IFS. */
export interface Env {
  /** `$0`, `$1`, …; null marks a value that is not static (an `xargs` argument, a placeholder). */
  params?: (string | null)[];
  /**
   * The field separators; null once the command assigns IFS (in a branch, a subshell or a function
   * this walk cannot place), so that how an expansion splits cannot be told.
   */
  ifs: string | null;
  /** A `for` loop's variable and the one value of its list this walk of the body stands for. */
  loop?: ReadonlyMap<string, string>;
}

export interface Expanded {
  values: string[];
  unresolved: boolean;
  /**
   * Per value, the glob pattern it is subject to (quoted characters escaped) when it holds an
   * unquoted `*`, `?` or `[...]`; absent when no value does.
   */
  patterns?: (string | null)[];
}

/** Most words one word may brace-expand to. */
export const MAX_BRACE_WORDS = 1000;

/** Variables the context can give: `$HOME`, `$PWD`, `$TMPDIR` (and `${HOME}`, …). */
const CONTEXT_VARIABLE = /^\$(?:(HOME|PWD|TMPDIR)|\{(HOME|PWD|TMPDIR)\})$/;
/** `${X:=v}`, `${X=v}`: an expansion that assigns X. */
const ASSIGNING = /^\$\{([A-Za-z_]\w*):?=/;
/**
 * Parameters whose value is always a number (`$$`, `$!`, `$?`, `$#`, `$RANDOM`, … — assigning
 * RANDOM or SECONDS only reseeds them): never a `/`, a blank or a glob, so a path holding one
 * (`/tmp/out-$$.txt`) lies where its text says. They keep their source text as their value.
 */
const NUMERIC_PARAMETER =
  /^\$(?:[$!?#]|\{[$!?#]\}|\{?(?:RANDOM|SECONDS|LINENO|PPID|BASHPID|UID|EUID|EPOCHSECONDS|SRANDOM)\}?)$/;

/**
 * A named special (SECONDS, RANDOM, UID, …) the command mentions other than as `$NAME` / `${NAME}`:
 * assigned or unset, it is an ordinary variable (in dash it always is one), so its value is unknown.
 */
function respelled(name: string, res: Resolver | undefined): boolean {
  if (!/^[A-Z]/.test(name)) return false;
  if (!res) return true;
  const use = new RegExp(`\\$(?:${name}|\\{${name}\\})(?!\\w)`, 'g');
  const mention = new RegExp(`(?<![\\w$])${name}(?!\\w)`);
  return res.texts.some((text) => text.includes(name) && mention.test(text.replace(use, '')));
}

export function expandWord(word: Word, env: Env, res?: Resolver): Expanded {
  const sole = word.parts.length === 1 ? word.parts[0] : undefined;
  if (sole && sole.kind === 'param' && /^[0-9@*]$/.test(sole.name) && env.params && sole.src.length <= 4) {
    return withPatterns(expandParam(sole.name, sole.quoted, env), sole.quoted);
  }
  // The whole word a variable assigned once from `mktemp` (a new temp path).
  // Quoted only: unquoted, IFS could split the path.
  if (sole?.kind === 'param' && sole.quoted && res) {
    const path = res.mktempPath(sole.src);
    if (path !== null) return { values: [path], unresolved: false };
  }
  // `"$tmp"/x`, `"$tmp/x"`: a path below it, where nothing runs when mktemp fails (see mktempPath).
  const below = res && mktempBelow(word, res);
  if (below) return below;
  // A plain word (one literal part, no tilde): most words of most commands.
  if (sole !== undefined && sole.kind === 'lit' && (sole.quoted || !sole.text.startsWith('~'))) {
    const out: Expanded = { values: [sole.text], unresolved: false };
    if (mayGlob(sole.text)) {
      const pattern = sole.quoted ? inert(sole.text) : sole.text;
      if (hasGlob(pattern)) out.patterns = [pattern];
    }
    return out;
  }
  let text = '';
  let unresolved = false;
  let split = false;
  /** The text as a glob pattern: characters from quotes escaped. */
  let pattern = '';
  for (let k = 0; k < word.parts.length; k++) {
    const part = word.parts[k] as WordPart;
    if (k === 0 && part.kind === 'lit' && !part.quoted && part.text.startsWith('~')) {
      const home = tildeHome(part.text, res);
      if (home === null) {
        unresolved = true;
        text += part.text;
        continue;
      }
      if (home !== undefined) {
        text += home + part.text.slice(1);
        pattern += inert(home) + part.text.slice(1);
        continue;
      }
    }
    const value = partValue(part, env, res);
    if (value === null) {
      unresolved = true;
      text += part.kind === 'lit' ? part.text : part.src;
    } else {
      text += value;
      pattern += part.quoted ? inert(value) : value;
      if (part.kind !== 'lit' && !part.quoted) split = true;
    }
  }
  if (split && !unresolved) {
    // Where the split cannot be told, the word stays as written (`git $(echo clean:-fdx)`), so that
    // it reads as the unresolved expansion it is, not as one known word.
    const asWritten = (): Expanded => ({ values: [sourceText(word)], unresolved: true });
    if (env.ifs === null) return asWritten();
    if (word.parts.length === 1)
      return withPatterns({ values: splitFields(text, env.ifs), unresolved }, false);
    // `r$(echo 'm -rf') src`: the unquoted expansion's value splits, and the text around it joins the
    // first and last fields.
    const fields = splitWord(word, env, res, env.ifs);
    if (fields === null) return asWritten();
    return withPatterns({ values: fields, unresolved: false }, false);
  }
  const out: Expanded = { values: [text], unresolved };
  if (!unresolved && mayGlob(text) && hasGlob(pattern)) out.patterns = [pattern];
  return out;
}

const mayGlob = (text: string): boolean => /[*?[]/.test(text);
/** Text from quotes in a pattern: its glob characters escaped (most text has none). */
const inert = (text: string): string => (/[\\*?[\]]/.test(text) ? escapeGlob(text) : text);

/** Unquoted values are glob patterns as they are. */
function withPatterns(expanded: Expanded, quoted: boolean): Expanded {
  if (quoted || expanded.unresolved || !expanded.values.some(mayGlob)) return expanded;
  const patterns = expanded.values.map((v) => (mayGlob(v) && hasGlob(v) ? v : null));
  return patterns.some((p) => p !== null) ? { ...expanded, patterns } : expanded;
}

/**
 * `~` and `~/…` at the start of a word: the home directory when the context gives it (and the
 * command did not assign HOME: null, unresolved); undefined when the text stays as written.
 */
function tildeHome(text: string, res: Resolver | undefined): string | null | undefined {
  if (text !== '~' && !text.startsWith('~/')) return undefined;
  if (!res?.ctx) return undefined;
  return res.variable('HOME');
}

function partValue(part: WordPart, env: Env, res?: Resolver): string | null {
  switch (part.kind) {
    case 'lit':
      return part.text;
    case 'param': {
      const bound = env.loop?.get(part.name);
      if (bound !== undefined && (part.src === `$${part.name}` || part.src === `\${${part.name}}`))
        return bound;
      const assigned = ASSIGNING.exec(part.src);
      if (assigned) res?.assign(assigned[1] as string);
      const known = CONTEXT_VARIABLE.exec(part.src);
      if (known) return res ? res.variable((known[1] ?? known[2]) as string) : null;
      if (NUMERIC_PARAMETER.test(part.src) && !respelled(part.name, res)) return part.src;
      if (!env.params || !/^[0-9]$/.test(part.name) || part.src.length > 4) return null;
      const index = Number(part.name);
      return index < env.params.length ? (env.params[index] as string | null) : '';
    }
    case 'sub':
      return part.proc ? null : staticOutput(part.script, env, res);
    case 'arith':
      res?.scanText(part.src);
      return null;
  }
}

function expandParam(name: string, quoted: boolean, env: Env): Expanded {
  const params = env.params ?? [];
  const index = Number(name);
  const pick = name === '@' || name === '*' ? params.slice(1) : [index < params.length ? params[index] : ''];
  if (pick.some((v) => v === null)) return { values: [`$${name}`], unresolved: true };
  if (env.ifs === null && !(quoted && name !== '*')) return { values: [`$${name}`], unresolved: true };
  const values = pick as string[];
  if (quoted) {
    if (name === '@') return { values, unresolved: false };
    if (name === '*') return { values: [values.join(env.ifs?.[0] ?? '')], unresolved: false };
    return { values: [values[0] ?? ''], unresolved: false };
  }
  return { values: values.flatMap((v) => splitFields(v, env.ifs)), unresolved: false };
}

/** A word's text as written: literal parts as they read, expansions as their source. */
function sourceText(word: Word): string {
  return word.parts.map((part) => (part.kind === 'lit' ? part.text : part.src)).join('');
}

/**
 * The fields of a word of several parts, its unquoted expansions split at the separators; null when
 * the separators hold other characters than blanks (bash then keeps empty fields, not read here).
 * Glob characters from quotes are not told apart here: such a word stays as its text.
 */
function splitWord(word: Word, env: Env, res: Resolver | undefined, ifs: string): string[] | null {
  if (/[^ \t\n]/.test(ifs)) return null;
  const fields: string[] = [''];
  /** The last field was closed by a separator, and nothing has joined it yet. */
  let open = false;
  for (const part of word.parts) {
    const value = partValue(part, env, res) as string;
    if (part.kind === 'lit' || part.quoted) {
      if (part.quoted && /[*?[\\]/.test(value)) return null;
      fields[fields.length - 1] += value;
      open = false;
      continue;
    }
    for (const c of value) {
      if (ifs.includes(c)) {
        if (fields[fields.length - 1] !== '') fields.push('');
        open = true;
      } else {
        fields[fields.length - 1] += c;
        open = false;
      }
    }
  }
  if (open || fields[fields.length - 1] === '') fields.pop();
  return fields;
}

function splitFields(text: string, ifs: string | null): string[] {
  if (ifs === null) return [text];
  if (ifs === '') return text === '' ? [] : [text];
  const fields: string[] = [];
  let current = '';
  for (const c of text) {
    if (ifs.includes(c)) {
      if (current !== '') fields.push(current);
      current = '';
    } else current += c;
  }
  if (current !== '') fields.push(current);
  return fields;
}

/** The output of a substitution when it is statically known: `echo`/`printf` of literals, `cat` of a heredoc. */
export function staticOutput(script: Script, env: Env, res?: Resolver): string | null {
  if (script.pipelines.length !== 1) return null;
  const commands = script.pipelines[0]?.commands ?? [];
  if (commands.length !== 1) return null;
  const out = commandOutput(commands[0] as Command, env, res);
  return out === null ? null : out.replace(/\n+$/, '');
}

/** What a simple `echo`, `printf` or `cat <<EOF` prints, when static; null otherwise. */
export function commandOutput(command: Command, env: Env, res?: Resolver): string | null {
  if (command.type !== 'simple' || command.assigns.length > 0) return null;
  const argv: string[] = [];
  for (const word of command.words) {
    let words: Word[];
    try {
      words = braceExpand(word, MAX_BRACE_WORDS);
    } catch (error) {
      if (error instanceof BraceLimit) return null;
      throw error;
    }
    for (const each of words) {
      const expanded = expandWord(each, env, res);
      // Unquoted globs in the output are expanded where the output is used; here they are text.
      if (expanded.unresolved) return null;
      argv.push(...expanded.values);
    }
  }
  const program = argv[0];
  const input = command.redirects.find((r) => r.op === '<<' || r.op === '<<-' || r.op === '<<<');
  const others = command.redirects.filter((r) => r !== input);
  if (others.length > 0) return null;
  if (program === 'git' && !input && others.length === 0 && CURRENT_BRANCH.has(argv.slice(1).join(' '))) {
    const branch = res?.currentBranch();
    return branch ? `${branch}\n` : null;
  }
  // `cd "$(git rev-parse --show-toplevel)"`: the work tree's top, found from where the command runs.
  if (program === 'git' && !input && argv.slice(1).join(' ') === 'rev-parse --show-toplevel') {
    const top = res?.topLevel();
    return top ? `${top}\n` : null;
  }
  if (program === 'echo' && !input) return echoOutput(argv.slice(1));
  if ((program === 'dirname' || program === 'basename') && !input)
    return pathPartOutput(program, argv.slice(1));
  if (program === 'printf' && !input) return printfOutput(argv.slice(1));
  if (program === 'cat' && argv.length === 1 && input) {
    // An unquoted body expands `$X`, backquotes and backslashes as it is read, quotes or not
    // (`echo '$X'` prints X's value): only a body holding none of them is its own text.
    if (input.heredoc)
      return input.heredoc.quoted || !/[$`\\]/.test(input.heredoc.body) ? input.heredoc.body : null;
    if (input.target) {
      const target = expandWord(input.target, env);
      return target.unresolved ? null : `${target.values.join(' ')}\n`;
    }
  }
  return null;
}

/**
 * What `dirname PATH…` or `basename PATH [SUFFIX]` prints: functions of their words alone, as GNU
 * coreutils computes them (a script's `source "$(dirname "$0")/lib.sh"`). Null with any option.
 */
function pathPartOutput(program: string, args: string[]): string | null {
  const words = args[0] === '--' ? args.slice(1) : args;
  if (words.length === 0 || words.some((w) => w.startsWith('-') && w !== '-')) return null;
  const trimmed = (p: string) => (/^\/+$/.test(p) ? '/' : p.replace(/\/+$/, ''));
  if (program === 'basename') {
    if (words.length > 2) return null;
    const path = trimmed(words[0] as string);
    let base = path === '/' ? '/' : path.slice(path.lastIndexOf('/') + 1);
    const suffix = words[1];
    if (suffix !== undefined && base !== suffix && base.endsWith(suffix))
      base = base.slice(0, -suffix.length);
    return `${base}\n`;
  }
  return words
    .map((word) => {
      const path = trimmed(word);
      if (path === '/') return '/\n';
      const cut = path.lastIndexOf('/');
      if (cut < 0) return '.\n';
      const dir = trimmed(path.slice(0, cut));
      return `${dir === '' ? '/' : dir}\n`;
    })
    .join('');
}

/** git commands that print the current branch's name (read from the repository where it can be). */
const CURRENT_BRANCH = new Set([
  'branch --show-current',
  'rev-parse --abbrev-ref HEAD',
  'symbolic-ref --short HEAD',
  'symbolic-ref --short -q HEAD',
  'symbolic-ref -q --short HEAD',
]);

/**
 * What echo prints, or null where shells differ: a backslash is an escape under `-e`, in dash's and
 * zsh's echo always, and in bash with xpg_echo (`echo -e 'r\x6d'` prints rm).
 */
function echoOutput(args: string[]): string | null {
  let i = 0;
  let newline = true;
  while (i < args.length && /^-[neE]+$/.test(args[i] as string)) {
    if ((args[i] as string).includes('n')) newline = false;
    i++;
  }
  const words = args.slice(i);
  if (words.some((w) => w.includes('\\'))) return null;
  return words.join(' ') + (newline ? '\n' : '');
}

function printfOutput(args: string[]): string | null {
  let format = args[0];
  if (format === '--') format = args[1];
  if (format === undefined || format.startsWith('-')) return null;
  const values = args.slice(args[0] === '--' ? 2 : 1);
  if (/%[^s%]/.test(format) || /\\[^nt\\]/.test(format)) return null;
  const unescapeText = (s: string) => s.replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\\\/g, '\\');
  // `%%s` is a percent sign and an s, not a slot: count slots as the replacement below reads them.
  const slots = [...format.matchAll(/%%|%s/g)].filter((m) => m[0] === '%s').length;
  if (slots === 0) return unescapeText(format).replace(/%%/g, '%');
  let out = '';
  let k = 0;
  do {
    out += unescapeText(format).replace(/%%|%s/g, (m) => (m === '%%' ? '%' : (values[k++] ?? '')));
  } while (k < values.length);
  return out;
}

/**
 * A word that is the mktemp variable followed by literal text (`"$tmp"/x`, `"$tmp/x"`), when the
 * command runs nothing if mktemp fails (Resolver.mktempPath with `below`); undefined otherwise.
 */
function mktempBelow(word: Word, res: Resolver): Expanded | undefined {
  const [first, ...rest] = word.parts;
  if (first?.kind !== 'param' || !first.quoted || rest.length === 0) return undefined;
  let tail = '';
  for (const part of rest) {
    if (part.kind !== 'lit') return undefined;
    tail += part.text;
  }
  if (!tail.startsWith('/') || /[*?[\]{}~$`]/.test(tail)) return undefined;
  const path = res.mktempPath(first.src, true);
  return path === null ? undefined : { values: [`${path}${tail}`], unresolved: false };
}
