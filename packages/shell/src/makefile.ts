// `make [TARGET…]`: the recipe lines of the targets and of their prerequisites, read from the
// makefile at decision time, are parsed as shell (via `make TARGET`), so every shell rule applies to
// them. Variables defined statically are substituted (undefined ones are empty, as in make; make's
// own defaults such as $(RM) are known); what cannot be known — a function's result, a multi-line
// define, an include that cannot be read, an --eval — becomes an unresolved word, so it is judged
// as a variable would be (dynamic in command position). Dry runs (-n, -q) run no recipe line but
// still read the makefiles: their parse-time commands (`$(shell …)`, `!=`), the `$(shell …)` of the
// recipes they expand to print, and `+`/`$(MAKE)` lines (run even under -n) are judged.
import { posix } from 'node:path';
import type { Extractor, Invocation } from './extract.js';
import { DESCRIPTOR_PATH } from './node-files.js';
import { own } from './own.js';
import { canRead, judgeShellText, noteUnread, readScript } from './scripts.js';

/** Stands where make's expansion cannot be known: the shell parser reads it as an unresolved variable. */
const UNKNOWN = '$__make_unknown';
const MAX_TARGETS = 200;
const MAX_INCLUDES = 8;
/** The makefiles GNU make looks for, in its order. */
const MAKEFILE_NAMES = ['GNUmakefile', 'makefile', 'Makefile'];
const DEFAULTS: Record<string, string> = {
  CC: 'cc',
  CXX: 'g++',
  CPP: 'cc -E',
  AR: 'ar',
  AS: 'as',
  LD: 'ld',
  RM: 'rm -f',
  MAKE: 'make',
  FC: 'f77',
  YACC: 'yacc',
  LEX: 'lex',
  ARFLAGS: 'rv',
  SHELL: '/bin/sh',
};
const VALUE_OPTIONS = new Set([
  '-f',
  '-C',
  '-I',
  '-o',
  '-W',
  '-l',
  '--file',
  '--makefile',
  '--directory',
  '--include-dir',
  '--old-file',
  '--what-if',
  '--assume-old',
  '--assume-new',
  '--new-file',
]);
const DRY_LONG = /^(--dry-run|--just-print|--recon|--question)$/;

/** `-n`, `-kn`, `--dry-run`: recipes are not run. In a cluster only letters before a value-taking one count. */
function isDryOption(arg: string): boolean {
  if (DRY_LONG.test(arg)) return true;
  if (!/^-[a-zA-Z]/.test(arg)) return false;
  return /[nq]/.test((/^-([^fCIoWljEO]*)/.exec(arg)?.[1] as string) ?? '');
}

interface Rule {
  targets: string[];
  prereqs: string[];
  recipe: string[];
}

interface Makefile {
  vars: Map<string, string>;
  rules: Rule[];
  unknown: boolean;
  /** Commands make runs while reading or expanding (`$(shell …)`, `VAR != …`): judged as shell too. */
  shell: string[];
}

/** The processor count, as a command prints it: a number. */
const PROCESSOR_COUNT = String.raw`"?\$\((?:nproc(?: --all)?|getconf _?NPROCESSORS_ONLN|sysctl -n hw\.(?:ncpu|logicalcpu))\)"?`;
const JOBS_ATTACHED = new RegExp(`^(?:-j|-l|--jobs=|--load-average=)${PROCESSOR_COUNT}$`);
const JOBS_VALUE = new RegExp(`^${PROCESSOR_COUNT}$`);
/** What could make the count something else: the command's own nproc, an alias, another PATH. */
const SHADOWS_COUNT =
  /\b(nproc|getconf|sysctl)\s*\(\s*\)|\bfunction\s+(nproc|getconf|sysctl)\b|\balias\b|(^|[^\w])PATH\+?=|\benable\b|\bhash\b/;

/**
 * `make -j$(nproc)`, `-j "$(nproc)"`, `--jobs=$(getconf _NPROCESSORS_ONLN)`: a job count the shell works
 * out is still a number, as the value of -j or -l only, and unless the command defines its own counter.
 */
function jobCount(argv: readonly string[], k: number, texts: readonly string[]): boolean {
  const word = argv[k] as string;
  const separate = /^(-j|-l|--jobs|--load-average)$/.test(argv[k - 1] ?? '') && JOBS_VALUE.test(word);
  if (!separate && !JOBS_ATTACHED.test(word)) return false;
  return !texts.some((t) => SHADOWS_COUNT.test(t));
}

/** A SHELL make's recipes may run under: a standard shell. */
const STANDARD_SHELL = /^(\/bin\/|\/usr\/bin\/)?(ba|da)?sh$/;
/** Variables a makefile may set that change what runs every recipe line. */
const SHELL_VARIABLES = /^(SHELL|\.SHELLFLAGS|\.RECIPEPREFIX|MAKESHELL)$/;
/** Variables that change how every recipe line runs or is read. */
const SHELL_SETTINGS = new Set(['.SHELLFLAGS', '.RECIPEPREFIX', 'MAKEFILES', 'MAKEFLAGS', '.ONESHELL']);

export function runMake(ex: Extractor, inv: Invocation): void {
  // Without a file view nothing is read; the makefile's path is still noted (see noteUnread).
  const readable = canRead(ex, inv);
  const { argv, unresolved } = inv;
  let dir: string | undefined;
  const files: string[] = [];
  const goals: string[] = [];
  const overrides = new Map<string, string>();
  let shellAssign = false;
  let dry = false;
  for (let k = 1; k < argv.length; k++) {
    const arg = argv[k] as string;
    // `--eval TEXT` (GNU make 4.4: `-E TEXT`) is makefile text given on the command line: it may
    // define or redefine any rule, with or without a file view.
    // GNU make takes any unambiguous prefix of a long option (`--ev=`); `-E` may close a cluster of
    // letters that take no value (`-kE`), not sit inside a value (`-CEngine`).
    if (arg.startsWith('--ev') || /^-[BbdeiknpqrsStvwhL]*E/.test(arg)) {
      ex.flag('unresolved_script', inv.text);
      return;
    }
    if (unresolved[k] && !jobCount(argv, k, ex.res.texts)) {
      if (readable) ex.flag('unresolved_script', inv.text);
      return;
    }
    const eq = arg.indexOf('=');
    if (isDryOption(arg)) {
      dry = true;
      if (!/^-[a-zA-Z]*[fCIoWl]/.test(arg)) continue;
    }
    if (VALUE_OPTIONS.has(arg)) {
      const value = argv[++k] ?? '';
      if (arg === '-C' || arg === '--directory') dir = dir ? posix.join(dir, value) : value;
      else if (arg === '-f' || arg === '--file' || arg === '--makefile') files.push(value);
      continue;
    }
    if (arg.startsWith('--') && eq > 0) {
      const name = arg.slice(0, eq);
      const value = arg.slice(eq + 1);
      if (name === '--directory') dir = dir ? posix.join(dir, value) : value;
      else if (name === '--file' || name === '--makefile') files.push(value);
      continue;
    }
    if (/^-[a-zA-Z]*[fC].+/.test(arg) && !arg.startsWith('--')) {
      const at = arg.search(/[fC]/);
      const value = arg.slice(at + 1);
      if (arg[at] === 'C') dir = dir ? posix.join(dir, value) : value;
      else files.push(value);
      continue;
    }
    if (/^-[a-zA-Z]*[fC]$/.test(arg)) {
      const value = argv[++k] ?? '';
      if (arg.endsWith('C')) dir = dir ? posix.join(dir, value) : value;
      else files.push(value);
      continue;
    }
    if (arg.startsWith('-')) continue;
    if (eq > 0) {
      // Every assignment operator works on make's command line: `CMD:=…`, `CMD+=…`, `CMD!=cmd`
      // (whose shell command runs when make reads it).
      const op = /(::?|:::|\?|\+|!)?$/.exec(arg.slice(0, eq))?.[0] ?? '';
      if (op === '!') shellAssign = true;
      overrides.set(arg.slice(0, eq - op.length).trim(), arg.slice(eq + 1));
    } else goals.push(arg);
  }
  const base = dir ?? '.';
  // `-f -` reads the makefile from stdin, as `-f /dev/stdin` does.
  const names =
    files.length > 0
      ? files.map((f) => (f === '-' ? '/dev/stdin' : f.startsWith('/') ? f : posix.join(base, f)))
      : undefined;
  if (!readable) {
    // A makefile read from the command's stdin is not followed without a file view.
    if (names?.some((n) => DESCRIPTOR_PATH.test(n))) ex.flag('unresolved_script', inv.text);
    for (const name of names ?? MAKEFILE_NAMES.map((n) => posix.join(base, n))) noteUnread(ex, inv, name);
    return;
  }
  // Where the directory cannot be told (`cd "$(cat f)" && make`), neither can the makefile.
  if (!names && ex.res.paths(base).unresolved) {
    ex.flag('unresolved_script', inv.text);
    return;
  }
  const path = names ? names[0] : findMakefile(ex, base);
  if (path === undefined) return; // no makefile: make stops with an error, nothing runs
  const resolved = ex.res.paths(path);
  if (resolved.unresolved || resolved.paths.length !== 1) {
    ex.flag('unresolved_script', inv.text);
    return;
  }
  const makefile: Makefile = { vars: new Map(), rules: [], unknown: false, shell: [] };
  const abs = resolved.paths[0] as string;
  let includes = 0;
  const load = (file: string, optional: boolean): void => {
    // `-include local.mk` of a file that is not there: make goes on without it.
    if (optional && ex.res.files?.realpath(file) === undefined) return;
    const text = readScript(ex, inv, file);
    if (text === undefined) {
      if (optional) return;
      makefile.unknown = true;
      return;
    }
    parseMakefile(text, makefile, (name, opt) => {
      if (++includes > MAX_INCLUDES || /[$%*?[]/.test(name)) {
        makefile.unknown = true;
        return;
      }
      load(name.startsWith('/') ? name : posix.join(posix.dirname(abs), name), opt);
    });
  };
  load(abs, false);
  for (const extra of (names ?? []).slice(1)) {
    const r = ex.res.paths(extra);
    if (r.unresolved || r.paths.length !== 1) makefile.unknown = true;
    else load(r.paths[0] as string, false);
  }
  // The environment gives make the variables the makefile leaves unset or sets with ?= (and, with
  // -e, all of them); read each one given to this command as set (`GO='rm -rf ~;' make test`).
  for (const a of inv.assignments) {
    const eq = a.indexOf('=');
    const name = a.slice(0, eq);
    if (name === 'MAKEFILES' || name === 'MAKEFLAGS' || name === 'MFLAGS' || name === 'GNUMAKEFLAGS') {
      makefile.unknown = true;
    } else if (name !== 'SHELL') makefile.vars.set(name, a.slice(eq + 1));
  }
  if (shellAssign) makefile.unknown = true;
  for (const [name, value] of overrides) {
    // A program or flags for every recipe line, given on the command line (`make SHELL=./x.sh`).
    if (name === 'SHELL' ? !STANDARD_SHELL.test(value.trim()) : SHELL_SETTINGS.has(name))
      makefile.unknown = true;
    makefile.vars.set(name, value);
  }
  makefile.vars.set('CURDIR', posix.dirname(abs));
  if (makefile.unknown) ex.flag('unresolved_script', `${abs}: ${inv.text.slice(0, 160)}`);
  // `.DEFAULT_GOAL := nuke` names the goal make runs when none is given.
  const namedGoal = makefile.vars.get('.DEFAULT_GOAL')?.trim();
  const targets = goals.length > 0 ? goals : namedGoal ? namedGoal.split(/\s+/) : defaultGoal(makefile.rules);
  // Expanding the recipes (to run or to print them) runs their `$(shell …)` too.
  const recipes = recipeLines(makefile, targets, dry);
  const lines = [...recipes, ...makefile.shell];
  if (lines.length > 0) judgeShellText(ex, inv, lines.join('\n'), `make ${targets.join(' ')}`.slice(0, 120));
}

function findMakefile(ex: Extractor, dir: string): string | undefined {
  for (const name of MAKEFILE_NAMES) {
    const p = ex.res.paths(posix.join(dir, name));
    if (!p.unresolved && p.paths.length === 1 && ex.res.files?.realpath(p.paths[0] as string) !== undefined) {
      return p.paths[0];
    }
  }
  return undefined;
}

/** Reads rules and variables; conditionals are not evaluated, so both branches count. */
export function parseMakefile(
  text: string,
  into: Makefile,
  include: (name: string, optional: boolean) => void,
): void {
  const lines = text.replace(/\\\r?\n[ \t]*/g, ' ').split(/\r?\n/);
  let current: Rule | undefined;
  let define: string | undefined;
  for (const raw of lines) {
    if (define !== undefined) {
      if (/^\s*endef\b/.test(raw)) {
        into.vars.set(define, UNKNOWN);
        define = undefined;
      }
      continue;
    }
    if (raw.startsWith('\t') && current) {
      current.recipe.push(raw.slice(1));
      continue;
    }
    const line = raw.replace(/(^|[^\\])#.*$/, '$1').trimEnd();
    if (line.trim() === '') continue;
    const trimmed = line.trim();
    const def = /^(?:override\s+|export\s+)*define\s+([^\s=:]+)/.exec(trimmed);
    if (def) {
      define = def[1] as string;
      if (SHELL_VARIABLES.test(define)) into.unknown = true;
      continue;
    }
    // `test: SHELL := ./evil.sh`: a target's own value of a variable that decides how recipes run.
    if (/^[^=]*[^:=]:(?!=)\s*(?:(?:override|export|private)\s+)*(\S+)\s*(?:[:+?!]*=)/.test(trimmed)) {
      const m = /:(?!=)\s*(?:(?:override|export|private)\s+)*([^\s:=+?!]+)\s*[:+?!]*=/.exec(trimmed);
      if (m && SHELL_VARIABLES.test(m[1] as string)) into.unknown = true;
    }
    const inc = /^(-|s)?include\s+(.+)$/.exec(trimmed);
    if (inc) {
      for (const name of (inc[2] as string).split(/\s+/)) include(name, inc[1] !== undefined);
      continue;
    }
    if (/^(ifeq|ifneq|ifdef|ifndef|else|endif|export|unexport|vpath|undefine)\b/.test(trimmed)) {
      if (
        /^(export|undefine)\s+\S+\s*$/.test(trimmed) ||
        /^(ifeq|ifneq|ifdef|ifndef|else|endif|vpath|unexport)\b/.test(trimmed)
      )
        continue;
    }
    const assign =
      /^(?:override\s+|export\s+|private\s+)*([^\s:#=+?!]+)\s*(:::=|::=|:=|\+=|\?=|!=|=)\s*(.*)$/.exec(
        trimmed,
      );
    if (assign) {
      const [, name, op, value] = assign as unknown as [string, string, string, string];
      if (name === '.RECIPEPREFIX' || name === '.SHELLFLAGS') into.unknown = true;
      if (op === '!=') {
        into.shell.push(expand(value, into, NO_AUTO, 0));
        into.vars.set(name, UNKNOWN);
      } else if (op === ':=' || op === '::=') into.vars.set(name, expand(value, into, NO_AUTO, 0));
      else if (op === '+=') into.vars.set(name, `${into.vars.get(name) ?? ''} ${value}`.trim());
      else if (op === '?=') {
        if (!into.vars.has(name)) into.vars.set(name, value);
      } else into.vars.set(name, value);
      if (name === 'SHELL' && !STANDARD_SHELL.test(value.trim())) into.unknown = true;
      continue;
    }
    const rule = /^([^:=]+?)\s*::?\s*(?![=])(.*)$/.exec(trimmed);
    if (rule) {
      let rest = rule[2] as string;
      let inline: string | undefined;
      const semi = rest.indexOf(';');
      if (semi >= 0) {
        inline = rest.slice(semi + 1).trim();
        rest = rest.slice(0, semi);
      }
      // `target: VAR = value` (a target-specific variable): taken as a global one.
      const targetVar = /^([^\s:#=+?!]+)\s*(:=|\+=|\?=|=)\s*(.*)$/.exec(rest.trim());
      if (targetVar) {
        into.vars.set(targetVar[1] as string, targetVar[3] as string);
        current = undefined;
        continue;
      }
      current = {
        targets: (rule[1] as string).split(/\s+/).filter(Boolean),
        prereqs: rest.replace(/\|/g, ' ').split(/\s+/).filter(Boolean),
        recipe: inline ? [inline] : [],
      };
      into.rules.push(current);
      continue;
    }
    // A line make would reject: what the file does is not known.
    into.unknown = true;
    current = undefined;
  }
}

function defaultGoal(rules: readonly Rule[]): string[] {
  for (const rule of rules) {
    const first = rule.targets[0];
    if (first === undefined || first.includes('%') || (first.startsWith('.') && !first.includes('/')))
      continue;
    return [first];
  }
  return [];
}

/** A recipe line make runs even in a dry run: `+` prefixed, or naming $(MAKE)/${MAKE}. */
const RUN_WHEN_DRY = /^[\s@-]*\+|\$[({]MAKE[)}]/;

/** The recipe lines make runs for the targets, prerequisites first, expanded (a dry run: those it still runs). */
function recipeLines(makefile: Makefile, goals: readonly string[], dry = false): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (target: string, depth: number): void => {
    if (seen.has(target) || seen.size >= MAX_TARGETS || depth > 50) {
      if (seen.size >= MAX_TARGETS) makefile.unknown = true;
      return;
    }
    seen.add(target);
    const explicit = makefile.rules.filter((r) => r.targets.includes(target));
    let stem = '';
    let rules = explicit;
    if (!explicit.some((r) => r.recipe.length > 0)) {
      const pattern = makefile.rules.find(
        (r) => r.recipe.length > 0 && r.targets.some((t) => matchPattern(t, target) !== undefined),
      );
      if (pattern) {
        const t = pattern.targets.find((x) => matchPattern(x, target) !== undefined) as string;
        stem = matchPattern(t, target) as string;
        rules = [...explicit, { ...pattern, prereqs: pattern.prereqs.map((p) => p.replace('%', stem)) }];
      }
    }
    const prereqs = rules
      .flatMap((r) => r.prereqs)
      .map((p) => expand(p, makefile, { target, prereqs: [], stem }, 0));
    for (const words of prereqs)
      for (const p of words.split(/\s+/).filter(Boolean)) if (p !== UNKNOWN) visit(p, depth + 1);
    for (const rule of rules) {
      const auto = { target, prereqs: rule.prereqs, stem };
      for (const line of rule.recipe) {
        const text = expand(line.replace(/^[\s@+-]+/, ''), makefile, auto, 0);
        if (!dry || RUN_WHEN_DRY.test(line)) out.push(text);
      }
    }
  };
  for (const goal of goals) visit(goal, 0);
  return out.filter((l) => l.trim() !== '');
}

function matchPattern(pattern: string, target: string): string | undefined {
  const at = pattern.indexOf('%');
  if (at < 0) return undefined;
  const pre = pattern.slice(0, at);
  const post = pattern.slice(at + 1);
  if (target.length < pre.length + post.length || !target.startsWith(pre) || !target.endsWith(post))
    return undefined;
  return target.slice(pre.length, target.length - post.length);
}

const NO_AUTO: Auto = { target: '', prereqs: [], stem: '' };

interface Auto {
  target: string;
  prereqs: readonly string[];
  stem: string;
}

/** make's expansion of `$(VAR)`, `${VAR}`, `$X`, `$$`, automatic variables; functions are unknown. */
export function expand(text: string, makefile: Makefile, auto: Auto, depth: number): string {
  if (depth > 16) return UNKNOWN;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c !== '$') {
      out += c;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) break;
    if (next === '$') {
      out += '$';
      i++;
      continue;
    }
    let name: string;
    if (next === '(' || next === '{') {
      const close = next === '(' ? ')' : '}';
      let level = 0;
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === next) level++;
        else if (text[j] === close && --level === 0) break;
      }
      name = text.slice(i + 2, j);
      i = j;
    } else {
      name = next;
      i++;
    }
    out += variable(name, makefile, auto, depth);
  }
  return out;
}

function variable(name: string, makefile: Makefile, auto: Auto, depth: number): string {
  switch (name) {
    case '@':
      return auto.target;
    case '<':
      return auto.prereqs[0] ?? '';
    case '^':
    case '+':
    case '?':
      return auto.prereqs.join(' ');
    case '*':
      return auto.stem;
    case '|':
      return '';
  }
  if (/^[@<^*?+](D|F)$/.test(name)) return UNKNOWN;
  // `$(shell CMD)` runs CMD as make expands it; `$(eval …)`, `$(file …)` change what make does.
  const fn = /^(\S+)\s+([\s\S]*)$/.exec(name);
  if (fn?.[1] === 'shell') makefile.shell.push(expand(fn[2] as string, makefile, auto, depth + 1));
  else if (fn && /^(eval|file|call|value|guile|load)$/.test(fn[1] as string)) makefile.unknown = true;
  // Any other function call (`$(wildcard …)`, `$(subst …)`) or a computed name.
  if (/[\s,$]/.test(name)) return UNKNOWN;
  const value = makefile.vars.get(name);
  if (value === undefined) return own(DEFAULTS, name) ?? '';
  return expand(value, makefile, auto, depth + 1);
}
