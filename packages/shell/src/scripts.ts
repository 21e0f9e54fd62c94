// Scripts judged by what they contain: `bash FILE`, `source FILE`, `./FILE`, `python FILE`, `sh < FILE`
// read the file at decision time (bounded in size and count) and classify its contents with the same
// catalogue — shell text is parsed into segments (via `script:PATH`), interpreter source goes through
// the read-only code analysis. A file that cannot be read or analysed is unknown-dynamic. Every file
// a command would run is listed (ShellFacts.scripts) so core can refuse one the session wrote.

import { posix } from 'node:path';
import type { Env } from './expand.js';
import type { Extractor, Invocation } from './extract.js';
import type { FileView } from './files.js';
import { foldPath } from './fold-path.js';
import { isFrameworkLauncher } from './framework-launchers.js';
import { isHookFile } from './git-hooks.js';
import { forgiveWrapperStatements } from './jvm-wrappers.js';
import { DESCRIPTOR_PATH } from './node-files.js';
import { isReadOnlyCode } from './payload.js';
import { interpreterLanguage, type Language, LEAVES_NOTHING, SHELLS } from './programs.js';
import { pythonOpens } from './python-files.js';
import { PYTHON_STDLIB } from './python-stdlib.js';
import { type Resolver, TOOL_HOMES } from './resolve.js';
import { inside, inTemp, workTreeTop } from './scratch.js';
import type { SessionCodeLanguage } from './session-code.js';
import { judgeShellCalls } from './shell-calls.js';
import type { ShellSegment } from './types.js';
import { addPath, type WriteSet } from './writes.js';

/** Largest script file read at decision time; a larger one is unknown-dynamic. */
export const MAX_SCRIPT_BYTES = 128 * 1024;
/** Most script files read for one command (nested scripts included). */
export const MAX_SCRIPTS = 16;

const DEFAULT_IFS = ' \t\n';
/** Via entries that run the command on another host or in a container: its files are not ours to read. */
const REMOTE_VIA = /^(ssh|docker|podman|kubectl|oc|nerdctl)\b/;
/** Installed system software: not the project's, not the agent's to write (writes there are gated). */
const SYSTEM_DIR = /^\/(usr|bin|sbin|lib|lib32|lib64|libx32|etc|opt|nix|snap|System|Library)\//;

interface ScriptState {
  /** Absolute paths of every file the command would run as a script (or program file of its own). */
  scripts: Set<string>;
  /** Without a file view: the paths, as written, of files the command runs as code but nothing read. */
  unread: Set<string>;
  /**
   * The command's last write of static text to a path (normalised: `cat > s.sh <<'EOF' … EOF`,
   * `printf '…' > s.sh`): how many segments the command had then, and the text, worked out when a
   * run asks (null: not static after all). Other writes are read from the segments when needed.
   */
  written: Map<string, { at: number; text: string | null | (() => string | null) }>;
  /** Paths whose run was judged from the text the command wrote (see writtenText). */
  served: Set<string>;
  /** Files read so far in this parse. */
  reads: number;
  /** The command runs git hooks (git-hooks.ts): a hook file it writes is a script it writes and runs. */
  runsHooks: boolean;
  /** Files run without being judged because they are installed, not written (see installedTool). */
  relied: Set<string>;
  /** Directories whose every file the command runs (`run-parts DIR`): a file written there runs. */
  dirs: Set<string>;
  /** Per language, the directories whose code a test runner loads unjudged (ShellFacts.loads_code). */
  code: Map<SessionCodeLanguage, Set<string>>;
}

/** The key of this module's state on a parse (Resolver.slot). */
const STATE = {};

function state(res: Resolver): ScriptState {
  return res.slot<ScriptState>(STATE, () => ({
    scripts: new Set(),
    unread: new Set(),
    written: new Map(),
    served: new Set(),
    reads: 0,
    runsHooks: false,
    relied: new Set(),
    dirs: new Set(),
    code: new Map(),
  }));
}

/** The files this parse found the command would run as scripts, absolute. */
export function scriptsOf(res: Resolver): string[] {
  return [...(res.peek<ScriptState>(STATE)?.scripts ?? [])];
}

/**
 * Record a file the command runs unjudged because it is taken to be installed, not written: core
 * refuses the command if the session ever wrote it (ShellFacts.relies_on).
 */
export function noteRelied(res: Resolver, path: string): void {
  state(res).relied.add(path);
  state(res).scripts.add(path);
}

/** Something else the command passes because of (a git remote's name, see git-remotes.ts): relied on only. */
export function noteReliedOn(res: Resolver, name: string): void {
  state(res).relied.add(name);
}

/** The files noteRelied recorded in this parse. */
export function reliedFiles(res: Resolver): string[] {
  return [...(res.peek<ScriptState>(STATE)?.relied ?? [])];
}

/** Record a file the command runs (without reading it): core still asks whether the session wrote it. */
export function noteScript(res: Resolver, path: string): void {
  state(res).scripts.add(path);
}

/**
 * The command runs the project's code in `language` found under `dir` without the gate reading it (a
 * test runner's tests and what they import): core judges the files there the session wrote.
 */
export function noteProjectCode(res: Resolver, language: SessionCodeLanguage, dir: string): void {
  const st = state(res);
  const dirs = st.code.get(language) ?? new Set<string>();
  dirs.add(posix.normalize(dir));
  st.code.set(language, dirs);
}

/** What noteProjectCode recorded in this parse. */
export function projectCodeOf(res: Resolver): { language: SessionCodeLanguage; dir: string }[] {
  const code = res.peek<ScriptState>(STATE)?.code;
  if (!code) return [];
  return [...code].flatMap(([language, dirs]) => [...dirs].map((dir) => ({ language, dir })));
}

/** A directory whose every file the command runs: a file the same command writes into it runs too. */
export function noteRunDir(res: Resolver, dir: string): void {
  state(res).dirs.add(posix.normalize(dir));
}

/**
 * A file the command reads to decide what it does (a patch `git apply` applies): judged from its
 * contents now, which a write earlier in the same command would make stale — such a write is
 * flagged as a script written then run (checkScriptsWritten).
 */
export function noteReadInput(res: Resolver, path: string): void {
  state(res).unread.add(posix.normalize(path));
}

/**
 * Reads such an input file (a patch), relative to where the command runs (one directory only) and
 * `base` below it, and notes the read; undefined when it cannot be read or named.
 */
export function readInput(res: Resolver, path: string, base = ''): string | undefined {
  const view = res.files;
  const dirs = res.dirs;
  if (!view || dirs?.length !== 1 || /[$`]/.test(path)) return undefined;
  const abs = posix.resolve(dirs[0] as string, base, path);
  noteReadInput(res, abs);
  return view.readText(abs, 4 * 1024 * 1024);
}

/** What the command reads on stdin when that is static: a heredoc, piped text, or a file (`< FILE`) read with `read`. */
export function stdinText(
  inv: Invocation,
  read: ((path: string) => string | undefined) | undefined,
): string | undefined {
  const stdin = inv.stdin;
  if (stdin?.text !== undefined) return stdin.text;
  if (stdin?.file !== undefined && !/[$`]/.test(stdin.file)) return read?.(stdin.file);
  return undefined;
}

/**
 * The command runs a git command that may run hooks: a hook file (or hook-manager file) it writes,
 * wherever, is a script it writes and then runs (which hooks directory git uses is not told here).
 */
export function noteRunsHooks(res: Resolver): void {
  state(res).runsHooks = true;
}

/**
 * A file the command runs without it being read here (an interpreter's program, gdb's program):
 * listed, so core refuses one the session wrote; without a file view, kept for the same-command check.
 */
export function noteRunFile(ex: Extractor, inv: Invocation, word: string, unresolved = false): void {
  if (unresolved) return;
  if (!canRead(ex, inv)) {
    noteUnread(ex, inv, word);
    return;
  }
  const { paths, unresolved: unknown } = ex.res.paths(word);
  if (unknown) return;
  for (const path of paths) noteScript(ex.res, path);
}

/**
 * Without a file view nothing is read, but a file the same command writes and then runs as code
 * (`printf … > s.sh; sh s.sh`, `echo … > package.json && npm test`) is still told: its path is kept
 * for checkScriptsWritten. Words that are not static, and remote commands, name no file here.
 */
export function noteUnread(ex: Extractor, inv: Invocation, word: string, unresolved = false): void {
  if (ex.res.files !== undefined || unresolved || word === '' || inv.via.some((v) => REMOTE_VIA.test(v)))
    return;
  const { paths, unresolved: unknown } = ex.res.paths(word);
  if (unknown) return;
  // Textual paths: `./s.sh` and `s.sh` are one file.
  for (const path of paths) state(ex.res).unread.add(posix.normalize(path));
}

/**
 * A file the command writes with text that may be static, `at` the number of segments then, and
 * what works out the text (only if a run of the file asks).
 */
export function noteWritten(res: Resolver, path: string, text: () => string | null, at: number): void {
  state(res).written.set(posix.normalize(path), { at, text });
}

/** Programs that change a file's mode, owner or times, never its text (`chmod +x s.sh` before running it). */
export const METADATA_ONLY: ReadonlySet<string> = new Set([
  'chmod',
  'chown',
  'chgrp',
  'touch',
  'chattr',
  'setfacl',
]);

/**
 * Programs that change no file but the ones their words and redirections name (and those are
 * recorded): between a static write and the run, anything else — an archive unpacked, a directory
 * copied over, a checkout — may have replaced the file, and its text is no longer known.
 */
const NO_HIDDEN_WRITES = new Set(
  'echo printf cat chmod ls test [ true false : pwd mkdir touch grep head tail wc cd'.split(' '),
);

/**
 * The text a file to run holds because the command itself wrote it just before (static text only);
 * undefined when the command has not written it, or not statically (then checkScriptsWritten flags it).
 */
function writtenText(
  ex: Extractor,
  inv: Invocation,
  word: string,
): { path: string; text: string } | undefined {
  const st = ex.res.peek<ScriptState>(STATE);
  if (!st || st.written.size === 0 || inv.via.some((v) => REMOTE_VIA.test(v))) return undefined;
  const { paths, unresolved } = ex.res.paths(word);
  const path = paths[0];
  if (unresolved || paths.length !== 1 || path === undefined) return undefined;
  const key = posix.normalize(path);
  const entry = st.written.get(key);
  if (!entry) return undefined;
  if (typeof entry.text === 'function') entry.text = entry.text();
  const text = entry.text;
  if (text === null) return undefined;
  // What ran before the run (its own segment, when already emitted, is not before it): no write whose
  // target cannot be told, and since the write only plain commands, none writing the file again.
  const before = ex.segments.slice();
  if (before[before.length - 1]?.text === inv.text) before.pop();
  const changes = (seg: ShellSegment) => !METADATA_ONLY.has(seg.program);
  if (before.some((seg) => changes(seg) && seg.writes_unresolved)) return undefined;
  const between = before.slice(entry.at);
  const rewrites = (seg: ShellSegment) =>
    changes(seg) && (seg.writes ?? []).some((w) => posix.normalize(w) === key);
  if (!between.every((seg) => NO_HIDDEN_WRITES.has(seg.program) && !rewrites(seg))) return undefined;
  // Served from the write, and still listed: core refuses a file an earlier call of the session wrote.
  st.served.add(key);
  if (canRead(ex, inv)) st.scripts.add(path);
  return { path, text };
}

/**
 * A file the command wrote with static text before running it: `judge` that text, then what the file
 * holds now when it exists (`now`), since the write may not happen — it can sit in a branch not
 * taken (`false && printf … > s.sh`), which the parser reads as a plain list. False when the command
 * did not write it so.
 */
function judgeWritten(
  ex: Extractor,
  inv: Invocation,
  word: string,
  unresolved: boolean,
  judge: (text: string, path: string, now: boolean) => void,
): boolean {
  const known = unresolved ? undefined : writtenText(ex, inv, word);
  if (!known) return false;
  judge(known.text, known.path, false);
  if (canRead(ex, inv) && ex.res.files?.realpath(known.path) !== undefined) {
    const now = readScript(ex, inv, known.path);
    if (now !== undefined) judge(now, known.path, true);
  }
  return true;
}

/** Whether files can be read for this invocation: a context with a file view, and a local command. */
export function canRead(ex: Extractor, inv: Invocation): boolean {
  return ex.res.files !== undefined && !inv.via.some((v) => REMOTE_VIA.test(v));
}

/**
 * The absolute path a script word names, or undefined (and flagged) when it cannot be told. Only
 * called when `canRead` holds.
 */
export function scriptPath(
  ex: Extractor,
  inv: Invocation,
  word: string,
  unresolved: boolean,
): string | undefined {
  if (unresolved || word === '') {
    ex.flag('unresolved_script', inv.text);
    return undefined;
  }
  const { paths, unresolved: unknown } = ex.res.paths(word);
  if (unknown || paths.length !== 1) {
    ex.flag('unresolved_script', inv.text);
    return undefined;
  }
  return paths[0] as string;
}

/** Read a file the command runs, within the bounds; undefined (flagged unreadable) when it cannot be. */
export function readScript(ex: Extractor, inv: Invocation, path: string): string | undefined {
  const files = ex.res.files;
  if (!files) return undefined;
  if (DESCRIPTOR_PATH.test(path)) return descriptorScript(ex, inv, path);
  const st = state(ex.res);
  st.scripts.add(path);
  if (st.reads >= MAX_SCRIPTS) {
    ex.flag('limit', `${inv.text.slice(0, 160)} (more than ${MAX_SCRIPTS} script files)`);
    return undefined;
  }
  st.reads++;
  const text = files.readText(path, MAX_SCRIPT_BYTES);
  if (text === undefined) ex.flag('unreadable_script', `${path}: ${inv.text.slice(0, 160)}`);
  return text;
}

/**
 * A script named by the command's own descriptor: fd 0 (/dev/stdin, /dev/fd/0, /proc/self/fd/0) is
 * the command's stdin — a here-doc or here-string is the script's text, `< FILE` is that file; any
 * other descriptor, or stdin from a pipe, cannot be read here.
 */
function descriptorScript(ex: Extractor, inv: Invocation, path: string): string | undefined {
  const stdin = /^\/(?:dev\/stdin|dev\/fd\/0|proc\/(?:self|thread-self)\/fd\/0)$/.test(path);
  if (stdin && inv.stdin?.text !== undefined) return inv.stdin.text;
  const file = stdin ? stdinScriptFile(inv) : undefined;
  if (file !== undefined && !DESCRIPTOR_PATH.test(file) && !/[$`]/.test(file)) {
    const { paths, unresolved } = ex.res.paths(file);
    if (!unresolved && paths.length === 1) return readScript(ex, inv, paths[0] as string);
  }
  ex.flag('unresolved_script', `${path}: ${inv.text.slice(0, 160)}`);
  return undefined;
}

/** Shell text from a file, parsed as commands of the current command (every shell rule applies). */
export function judgeShellText(
  ex: Extractor,
  inv: Invocation,
  text: string,
  label: string,
  params?: (string | null)[],
): void {
  const env: Env = params ? { params, ifs: DEFAULT_IFS } : { ifs: DEFAULT_IFS };
  ex.parseString(text, [...inv.via, label], env, false, inv.stdin);
}

/** Interpreter source from a file: plainly read-only, read-only but for literal shell calls (their commands parsed), or unknown-dynamic. */
export function judgeCode(
  ex: Extractor,
  inv: Invocation,
  language: Language,
  text: string,
  path: string,
): void {
  const body = text.replace(/^#![^\n]*\n?/, '');
  // `python manage.py migrate`, `bin/rails routes`: the framework's CLI, judged by its words (the
  // framework is imported from where python would find it, not a `django/` beside the launcher).
  if (isFrameworkLauncher(language, text) && !shadowedImport(ex, language, body, posix.dirname(path))) return;
  const files = noteCodeWrites(ex, inv, language, body, `script:${path}`);
  const judged =
    isReadOnlyCode(language, body, files) || judgeShellCalls(ex, inv, language, body, `script:${path}`);
  if (judged && !shadowedImport(ex, language, body, posix.dirname(path))) return;
  ex.flag('interpreter_code', `script:${path}: ${inv.text.slice(0, 160)}`);
}

/**
 * Python looks for a module in the script's directory first (the current one for `-c` and stdin):
 * a `json.py` there is what `import json` runs, and a `re.py` what json's own `import re` runs. True
 * when a module file there is named like one the code imports or one of the standard library's
 * (`dir`: where python looks first; null when not known); false without a file view.
 */
export function shadowedImport(ex: Extractor, language: Language, code: string, dir: string | null): boolean {
  if (language === 'node') return nonJsonRequire(ex, code, dir);
  if (language !== 'python') return false;
  const files = ex.res.files;
  if (!files) return false;
  if (dir === null || !dir.startsWith('/')) return true;
  const entries = files.readdir(dir);
  if (entries === undefined) return true;
  const imported = new Set<string>();
  for (const m of code.matchAll(/\b(?:import|from)\s+([\w.]+(?:\s*,\s*[\w.]+)*)/g)) {
    for (const name of (m[1] as string).split(/\s*,\s*/)) imported.add(name.split('.')[0] as string);
  }
  for (const entry of entries) {
    // `json.py`, a sourceless `json.pyc`, an extension `json.cpython-311-….so`, a package `json/`.
    const m = /^([A-Za-z_]\w*)(\.(?:[\w-]+\.)?(py|pyc|so|pyd))?$/.exec(entry);
    const name = m?.[1];
    if (name === undefined || !(imported.has(name) || PYTHON_STDLIB.has(name))) continue;
    // A directory is a package only with an __init__.py (a namespace portion yields to the library).
    if (m?.[2] !== undefined || files.realpath(posix.join(dir, entry, '__init__.py')) !== undefined)
      return true;
  }
  return false;
}

/** `require('./x.json')`, as the read-only vocabulary takes it: data, when the name is a JSON file. */
const JSON_REQUIRE = /\brequire\(\s*(['"])(\.{1,2}\/[\w./-]*\.json)\1\s*\)/g;

/**
 * Whether a `require` of a relative `.json` name would load code: node tries `x.json.js` when
 * there is no `x.json`, loads a directory's `index.js`, and picks a loader by a link's real name.
 */
function nonJsonRequire(ex: Extractor, code: string, dir: string | null): boolean {
  const files = ex.res.files;
  if (!files || !code.includes('.json')) return false;
  for (const m of code.matchAll(JSON_REQUIRE)) {
    if (dir === null || !dir.startsWith('/')) return true;
    const path = posix.resolve(dir, m[2] as string);
    const real = files.realpath(path);
    if (real === undefined || !real.endsWith('.json') || files.readHead?.(path, 1) === undefined) return true;
    // What node would load instead if the name went away: a write of it by this command, or ever by
    // the session (a job left running may move the JSON file aside), refuses the call.
    const instead = [
      `${path}.js`,
      `${path}.json`,
      `${path}.node`,
      `${path}/index.js`,
      `${path}/package.json`,
    ];
    noteReadInput(ex.res, path);
    for (const other of instead) {
      noteReadInput(ex.res, other);
      noteRelied(ex.res, other);
    }
  }
  return false;
}

/**
 * Python whose every `open` names a literal path (python-files.ts): the files it writes are a
 * segment of their own, judged as any write is (zones, .git, outside the project), and true — the
 * code may then use `open`. False for any other code, which stays as the vocabulary judges it.
 */
export function noteCodeWrites(
  ex: Extractor,
  inv: Invocation,
  language: Language,
  code: string,
  label: string,
): boolean {
  if (language !== 'python') return false;
  const opens = pythonOpens(code);
  if (!opens || opens.calls === 0) return false;
  if (opens.writes.length > 0) {
    const writes: WriteSet = { paths: [], unresolved: false };
    const replaced: string[] = [];
    for (const path of opens.writes) {
      const added = addPath(writes, path, false, ex.res, ex.res.tempDir());
      // `open(p, 'w')` empties the file before a byte is written: what it held is replaced whole.
      if (opens.truncates.includes(path) && !writes.unresolved) replaced.push(...added);
    }
    if (replaced.length > 0) writes.replaced = replaced;
    ex.emit({
      argv: [],
      unresolved: [],
      assignments: [],
      // Read as `>` onto each file (a mode that writes may truncate it): a dotfile, .git or a system
      // file is judged as a redirection onto it is.
      redirects: opens.writes.map((target) => ({ op: '>', target, truncates: true })),
      text: inv.text,
      via: [...inv.via, `${label} open()`],
      writes,
    });
  }
  return true;
}

/** `bash FILE ARGS…` / `source FILE ARGS…`: read the file and parse it as shell. */
export function runShellFile(
  ex: Extractor,
  inv: Invocation,
  word: string,
  unresolved: boolean,
  args: readonly string[],
  argsUnresolved: readonly boolean[],
): void {
  const params = [word, ...args.map((a, k) => (argsUnresolved[k] ? null : a))];
  const judge = (text: string, path: string) => judgeShellText(ex, inv, text, `script:${path}`, params);
  if (judgeWritten(ex, inv, word, unresolved, judge)) return;
  // The command's own descriptors need no file view: fd 0 is its here-doc, here-string or pipe.
  const own = !unresolved && DESCRIPTOR_PATH.test(posix.normalize(word));
  if (!own && !canRead(ex, inv)) {
    if (unresolved) ex.flag('unresolved_script', inv.text);
    noteUnread(ex, inv, word, unresolved);
    return;
  }
  const path = own ? posix.normalize(word) : scriptPath(ex, inv, word, unresolved);
  if (path === undefined) return;
  const text = own ? descriptorScript(ex, inv, path) : readScript(ex, inv, path);
  if (text === undefined) return;
  const from = ex.dynamic.length;
  judge(text, path);
  if (!own) forgiveWrapperStatements(ex, path, from, ex.res.texts[0] ?? inv.text);
}

/** `python FILE`, `node FILE`, …: read the program file and judge its source. */
export function runCodeFile(
  ex: Extractor,
  inv: Invocation,
  language: Language,
  word: string,
  unresolved: boolean,
): void {
  if (judgeWritten(ex, inv, word, unresolved, (text, path) => judgeCode(ex, inv, language, text, path)))
    return;
  if (!unresolved && DESCRIPTOR_PATH.test(posix.normalize(word))) {
    const path = posix.normalize(word);
    const text = descriptorScript(ex, inv, path);
    if (text !== undefined) judgeCode(ex, inv, language, text, path);
    return;
  }
  // Without a context a script held in a variable stays as the interpreter handler judged it.
  if (!canRead(ex, inv)) {
    noteUnread(ex, inv, word, unresolved);
    return;
  }
  const path = scriptPath(ex, inv, word, unresolved);
  if (path === undefined) return;
  // Installed packages (a dependency's bin script) are the project's tools, not the agent's text:
  // they are listed, so a file the session wrote is still refused, but not read.
  if (SYSTEM_DIR.test(path) || /\/(node_modules|site-packages|dist-packages|vendor\/bundle)\//.test(path)) {
    noteScript(ex.res, path);
    return;
  }
  const text = readScript(ex, inv, path);
  if (text !== undefined) judgeCode(ex, inv, language, text, path);
}

/**
 * `sh < FILE`, `bash 0< FILE`, `while read l; do sh; done < FILE`: the shell reads its commands
 * from a file (/dev/null is empty text, not a file to read).
 */
export function stdinScriptFile(inv: Invocation): string | undefined {
  return inv.stdin?.from === 'file' && inv.stdin.text === undefined ? inv.stdin.file : undefined;
}

/**
 * `./FILE`, `bin/tool`, `/home/me/x.sh`: a program named by a path. A text file is judged by its
 * `#!` line (a shell, or an interpreter) and contents; a compiled program (a NUL byte in its head)
 * is a program like any other, listed so that one the session wrote is refused.
 */
export function runPathProgram(ex: Extractor, inv: Invocation, word: string): void {
  if (!word.includes('/')) return;
  // A compiled program there now is a program like any other; its text is not judged.
  const judgeText = (text: string, path: string, now: boolean) => {
    if (!now || !text.includes('\0')) judgeProgramText(ex, inv, word, path, text);
  };
  if (judgeWritten(ex, inv, word, inv.unresolved[0] ?? false, judgeText)) return;
  if (!canRead(ex, inv)) {
    noteUnread(ex, inv, word, inv.unresolved[0]);
    return;
  }
  const { paths, unresolved } = ex.res.paths(word);
  // Where the directory cannot be told (`cd "$D" && ./run.sh`), neither can the file.
  if (unresolved) {
    ex.flag('unresolved_script', inv.text);
    return;
  }
  // A `cd` that may have failed leaves more than one place: each file there is judged.
  for (const path of paths) runProgramFile(ex, inv, word, path);
}

/**
 * Below the home directory, where version managers and installers keep the programs they manage
 * (pyenv's shims, rustup's proxies, nvm's node, pipx's environments): installed, not the project's.
 */
const HOME_TOOLCHAINS =
  /^(\.(pyenv|rbenv|nodenv|goenv|jenv|plenv|phpenv|cargo|rustup|nvm|volta|bun|deno|sdkman|asdf|fnm|ghcup|cabal|elan|opam|juliaup|dotnet|pub-cache|krew|foundry|rye|pixi|conda|nix-profile|local\/share\/(mise|rtx|pnpm|fnm|uv|pypoetry)|local\/pipx)|go|sdk|miniconda3|anaconda3|miniforge3|mambaforge)\//;

/** A file a toolchain installed: in the system's directories, a toolchain's home (TOOL_HOMES), or one below the home. */
function toolchainFile(res: Resolver, path: string): boolean {
  if (SYSTEM_DIR.test(path) || path.startsWith('/home/linuxbrew/.linuxbrew/')) return true;
  const home = res.ctx?.home;
  if (home?.startsWith('/') && path.startsWith(`${home.replace(/\/+$/, '')}/`)) {
    if (HOME_TOOLCHAINS.test(path.slice(home.replace(/\/+$/, '').length + 1))) return true;
  }
  // A version manager's directory under another home (the hook's HOME need not be the one PATH was
  // built in: pyenv's shims under /root while HOME says otherwise), never inside the project or a
  // scratch directory, where the session writes freely.
  if (/^\/(root|home\/[^/]+|Users\/[^/]+)\//.test(path) && !freelyWritten(res, path)) {
    const rest = path.replace(/^\/(root|home\/[^/]+|Users\/[^/]+)\//, '');
    if (HOME_TOOLCHAINS.test(rest)) return true;
  }
  return TOOL_HOMES.some((name) => {
    const dir = res.toolHome(name);
    return dir?.startsWith('/') === true && dir !== '/' && path.startsWith(`${dir.replace(/\/+$/, '')}/`);
  });
}

/** Inside the command's directory or its repository, or in a scratch directory: where the agent writes without a gate. */
function freelyWritten(res: Resolver, path: string): boolean {
  const cwd = res.ctx?.cwd;
  return inside(workTreeTop(res) ?? cwd, path) || inside(cwd, path) || inTemp(res, path);
}

/**
 * `git status` where PATH finds `git` in `.venv/bin` or `node_modules/.bin` (an activated
 * environment, a relative entry, a PATH the command assigns): the file that runs is judged as its
 * path would be (`./.venv/bin/git status`, runPathProgram) — read, listed among the scripts (so a
 * file the session wrote is refused), an installed tool passing as one — unless a toolchain
 * installed it (the system's directories, pyenv's shims, rustup's proxies), which is the name's
 * program as before; the session's writes there are gated as writes outside the project.
 * Without a file view nothing is looked up: the name is the program, as before.
 */
export function runFoundProgram(ex: Extractor, inv: Invocation, name: string): void {
  if (!canRead(ex, inv) || ex.res.ctx?.path === undefined) return;
  // Only where the agent writes freely: the system's and the toolchains' directories are not searched.
  const written = (path: string) =>
    ex.segments.some((s) => s.writes?.includes(path) === true) && !toolchainFile(ex.res, path);
  const { paths, unknown } = ex.res.onPath(name, written);
  // A relative PATH entry where the command stands cannot be told: neither can the file it finds.
  if (unknown) ex.flag('unresolved_script', inv.text);
  for (const at of paths) {
    const real = ex.res.realpath(at);
    if (real === undefined || !toolchainFile(ex.res, real)) runPathProgram(ex, inv, at);
  }
}

function runProgramFile(ex: Extractor, inv: Invocation, word: string, path: string): void {
  if (SYSTEM_DIR.test(path)) return;
  const files = ex.res.files;
  // Not there now: the command can only run it if something in it makes it first (`curl -o run.sh …
  // && ./run.sh`, an archive unpacked), which checkScriptsWritten tells; a program a compiler builds
  // (`cc -o app main.c && ./app`) is a program like any other.
  if (!files || files.realpath(path) === undefined) {
    noteScript(ex.res, path);
    return;
  }
  const head = files.readHead?.(path, 512);
  if (head?.includes('\0')) {
    noteScript(ex.res, path);
    return;
  }
  const text = readScript(ex, inv, path);
  if (text === undefined) return;
  // A dependency's bin, or a console script a virtual environment installed: the project's tool, as
  // PATH would find it (`npx tsc`, an activated environment's `pytest`), listed but not judged.
  if (installedTool(ex.res, files, word, path, text)) return;
  judgeProgramText(ex, inv, word, path, text);
}

/**
 * `node_modules/.bin/tsc`: a link to a node program in the dependency it comes from. `.venv/bin/pytest`:
 * the wrapper pip and uv write for a console script, beside the environment's python (a directory
 * holding pyvenv.cfg), that imports the package's entry point and calls it. Any other text in those
 * places (a shell script, a wrapper that does more) is judged as a script is.
 */
function installedTool(
  res: Resolver,
  files: FileView | undefined,
  word: string,
  path: string,
  text: string,
): boolean {
  if (files === undefined) return false;
  // The link resolved into the package it comes from, not a file of .bin's own.
  if (/(^|\/)node_modules\/\.bin\/[^/]+$/.test(word)) {
    if (shebang(text) !== 'node') return false;
    if (!/\/node_modules\/(?!\.bin\/)/.test(path)) return linkedPackage(res, files, word, path);
    // The whole package is what runs (its entry requires the rest): written by the session, refused.
    const pkg = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
    noteRelied(res, pkg === undefined ? path : `${pkg}/`);
    return true;
  }
  const bin = posix.dirname(path);
  if (posix.basename(bin) !== 'bin') return false;
  const env = posix.dirname(bin);
  if (files.realpath(posix.join(env, 'pyvenv.cfg')) === undefined) return false;
  // The environment's python and nothing more on the #! line (`-c…` there would be code).
  const first = text.slice(0, text.indexOf('\n') + 1);
  if (!new RegExp(`^#!${escapeRegExp(bin)}/python[0-9.]*\n$`).test(first)) return false;
  const wrapper = CONSOLE_SCRIPT.exec(text.slice(first.length));
  // python looks in the script's own directory first: a module there is not the package's.
  // (`top.py`, `top.pyc`, an extension `top.cpython-….so`, a package directory `top/`).
  const top = wrapper?.[1]?.split('.')[0];
  const beside = files.readdir(bin);
  if (top === undefined || beside === undefined || beside.some((name) => name.startsWith(`${top}.`)))
    return false;
  if (files.readdir(posix.join(bin, top)) !== undefined) return false;
  // The wrapper, and the environment's packages it imports from.
  noteRelied(res, path);
  noteRelied(res, `${posix.join(env, 'lib')}/`);
  return true;
}

/**
 * `node_modules/.bin/x` linking into a package that node_modules itself links elsewhere (a
 * workspace's own package, `npm link`): the package whose directory holds the file, found upward
 * from it, is the one `node_modules/<its name>` resolves to. Relied on, with the link itself: a
 * package or a link the session wrote refuses the command; anything else is judged as a script.
 */
function linkedPackage(res: Resolver, files: FileView, word: string, path: string): boolean {
  const where = res.paths(posix.dirname(posix.dirname(word)));
  const modules = where.paths[0];
  if (where.unresolved || where.paths.length !== 1 || modules === undefined) return false;
  for (let dir = posix.dirname(path), k = 0; dir !== '/' && k < 4; dir = posix.dirname(dir), k++) {
    const manifest = files.readText(posix.join(dir, 'package.json'), 64 * 1024);
    if (manifest === undefined) continue;
    let name: unknown;
    try {
      name = (JSON.parse(manifest) as { name?: unknown }).name;
    } catch {
      return false;
    }
    // A name as npm allows it: no `..` or `.x` that would lead out of node_modules.
    if (typeof name !== 'string' || !/^(@[\w-][\w.-]*\/)?[\w-][\w.-]*$/.test(name)) return false;
    if (files.realpath(posix.join(modules, name)) !== dir) return false;
    noteRelied(res, posix.join(modules, '.bin', posix.basename(word)));
    noteRelied(res, `${dir}/`);
    return true;
  }
  return false;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The body of a console-script wrapper (pip's and uv's), after its #! line; group 1 the module. */
const CONSOLE_SCRIPT =
  /^(?:# -\*- coding: utf-8 -\*-\n)?import re\nimport sys\nfrom ([A-Za-z_][\w.]*) import [A-Za-z_]\w*\nif __name__ == ["']__main__["']:\n {4}sys\.argv\[0\] = re\.sub\(r["']\(-script\\\.pyw\|\\\.exe\)\?\$["'], ["']["'], sys\.argv\[0\]\)\n {4}sys\.exit\([A-Za-z_]\w*\(\)\)\n?$/;

/** A program file's text judged by its `#!` line: shell text, interpreter source, or unknown. */
function judgeProgramText(ex: Extractor, inv: Invocation, word: string, path: string, text: string): void {
  const interpreter = shebang(text);
  const args = inv.argv.slice(1);
  const argsUnresolved = inv.unresolved.slice(1);
  if (interpreter === UNKNOWN_INTERPRETER) {
    ex.flag('unreadable_script', `${path}: its #! line runs a program that cannot be told`);
    return;
  }
  if (interpreter === undefined || SHELLS.has(interpreter)) {
    // `BASH_ENV=x ./s.sh`: bash reads BASH_ENV's file before the script (sh reads ENV when interactive).
    if (interpreter === 'bash' && inv.assignments.some((a) => /^BASH_ENV=./.test(a)))
      ex.flag('startup_variable', inv.text);
    const from = ex.dynamic.length;
    judgeShellText(ex, inv, text, `script:${path}`, [
      word,
      ...args.map((a, k) => (argsUnresolved[k] ? null : a)),
    ]);
    forgiveWrapperStatements(ex, path, from, ex.res.texts[0] ?? inv.text);
    return;
  }
  const language = interpreterLanguage(interpreter);
  if (language) judgeCode(ex, inv, language, text, path);
  else ex.flag('unreadable_script', `${path}: interpreter ${interpreter} not analysed`);
}

/** The program a `#!` line runs, normalised (`#!/usr/bin/env -S python3 -u` → `python3`); undefined without one. */
export function shebang(text: string): string | undefined {
  const m = /^#!\s*(\S+)(.*)$/m.exec(text.slice(0, 256));
  if (!m || text.indexOf('#!') !== 0) return undefined;
  const path = m[1] as string;
  // An interpreter outside the system's directories (`#!tools/bash`, `#!/tmp/x`) is a file of its
  // own, not the program its name says.
  if (!SYSTEM_DIR.test(path)) return UNKNOWN_INTERPRETER;
  let program = posix.basename(path);
  let words = (m[2] as string).trim().split(/\s+/).filter(Boolean);
  if (program === 'env') {
    // `env -S` splits the rest; other options or NAME=value (`PATH=./tools bash`) change what runs.
    if (words[0] === '-S' || words[0] === '--split-string') words = words.slice(1);
    else if (words[0]?.startsWith('-S')) words = [words[0].slice(2), ...words.slice(1)];
    if (words.some((w, k) => w.includes('=') || (k === 0 && w.startsWith('-')))) return UNKNOWN_INTERPRETER;
    program = words[0] ?? 'env';
    words = words.slice(1);
  }
  // Code on the line itself (`env -S bash -c "…"`, `python3 -c …`, `node -e …`) runs instead of the
  // file; a shell's -e is errexit.
  const code = SHELLS.has(program.toLowerCase())
    ? /^-[a-zA-Z]*c|^--(rcfile|init-file)\b/
    : /^-[a-zA-Z]*[ceEp]|^--(eval|print|command|exec)\b/;
  if (words.some((w) => code.test(w))) return UNKNOWN_INTERPRETER;
  return program.toLowerCase();
}

/** What shebang() gives for a `#!` line whose program cannot be told. */
const UNKNOWN_INTERPRETER = '';

/** Flag scripts the same command writes before they run: their contents now are not what will run. */
export function checkScriptsWritten(
  res: Resolver,
  segments: readonly Pick<
    ShellSegment,
    | 'program'
    | 'args'
    | 'writes'
    | 'writes_unresolved'
    | 'subcommand'
    | 'canonical'
    | 'positionals'
    | 'path'
    | 'build_outputs'
  >[],
  flag: (kind: string, text: string) => void,
): void {
  const st = res.peek<ScriptState>(STATE);
  if (!st || (st.scripts.size + st.unread.size + st.served.size + st.dirs.size === 0 && !st.runsHooks))
    return;
  const run = [...st.scripts, ...[...st.unread].map((p) => posix.normalize(p))];
  /** What runs, by its folded name (first of a name kept): a write under another case may be it. */
  const runFolded = new Map<string, string>();
  for (const p of run) {
    const folded = foldPath(posix.normalize(p));
    if (!runFolded.has(folded)) runFolded.set(folded, p);
  }
  // git putting another commit's files in the work tree (a checkout, a merge) may change a script
  // read and judged here. Not the hooks git runs itself, nor package.json, whose scripts run the
  // project's own code (tests) that is never judged; without a file view nothing was read.
  const rewriter = segments.find(rewritesWorkTree);
  const runsOwn = [...st.scripts].find((p) => !isHookFile(p) && posix.basename(p) !== 'package.json');
  if (rewriter !== undefined && runsOwn !== undefined)
    flag('script_written_by_command', `${runsOwn} (by git ${rewriter.subcommand ?? ''})`);
  // A file served from its static write is known only if nothing else wrote it (a loop may run a
  // second write before the next run) and no write's target is unknown.
  let unknownWrite = false;
  const times = new Map<string, number>();
  if (st.served.size > 0) {
    for (const segment of segments) {
      if (METADATA_ONLY.has(segment.program)) continue;
      if (segment.writes_unresolved) unknownWrite = true;
      for (const path of segment.writes ?? []) {
        const key = posix.normalize(path);
        times.set(key, (times.get(key) ?? 0) + 1);
      }
    }
  }
  for (const segment of segments) {
    // A compiler's output is a program built from the project's sources; mkdir, chmod, touch change no
    // text; a clean of build output (`find . -name '*.pyc' -delete` under the whole tree) leaves none.
    if (buildsProgram(segment) || KEEPS_TEXT.has(segment.program) || segment.build_outputs) continue;
    for (const path of segment.writes ?? []) {
      const key = posix.normalize(path);
      // Judged from the one static write the command makes; a second write (a loop may run it before
      // the next run) or a write to a target that cannot be told may have changed it.
      if (st.served.has(key)) {
        if (unknownWrite || (times.get(key) ?? 0) > 1) flag('script_written_by_command', path);
        continue;
      }
      if (st.scripts.has(path) || st.unread.has(key) || (st.runsHooks && isHookFile(key))) {
        flag('script_written_by_command', path);
        continue;
      }
      // `> MAKEFILE; make`: the Makefile itself where the file system ignores case.
      const folded = runFolded.get(foldPath(key));
      if (folded !== undefined) {
        flag('script_written_by_command', `${folded} (by ${path})`);
        continue;
      }
      // A file written into a directory run whole, or the directory itself written over.
      const dir = [...st.dirs].find((d) => d === key || holds(d, key) || holds(key, d));
      if (dir !== undefined) {
        flag('script_written_by_command', `${path} (run by run-parts ${dir})`);
        continue;
      }
      // Files named by a prefix (`split … PREFIX`): any run script that starts with it.
      const prefixed = key.endsWith('*')
        ? run.find((p) => posix.normalize(p).startsWith(key.slice(0, -1)))
        : undefined;
      if (prefixed !== undefined) {
        flag('script_written_by_command', `${prefixed} (by ${path})`);
        continue;
      }
      // A directory written whole (an archive unpacked into it, a tree copied over it) holds the file.
      const inside = run.find((p) => !st.served.has(posix.normalize(p)) && holds(key, posix.normalize(p)));
      if (inside !== undefined) flag('script_written_by_command', `${inside} (by ${path})`);
    }
  }
}

/**
 * A git command that puts other content in the work tree: a checkout or switch of a commit or of
 * paths (not a new branch at HEAD), a merge, rebase, cherry-pick, revert, am or apply, a pull, a
 * reset --hard/--keep/--merge, any stash but list/show/drop, bisect, restore --source, read-tree -u,
 * checkout-index, submodule update, lfs pull/checkout, subtree.
 */
export function rewritesWorkTree(
  s: Pick<ShellSegment, 'program' | 'subcommand' | 'canonical' | 'positionals' | 'path'>,
): boolean {
  if (s.program !== 'git') return false;
  const has = (...names: string[]) =>
    names.some((n) => s.canonical?.some((c) => c === n || c.startsWith(`${n}=`)));
  switch (s.subcommand) {
    case 'merge':
    case 'rebase':
    case 'cherry-pick':
    case 'revert':
    case 'am':
    case 'apply':
    case 'checkout-index':
    case 'pull':
    case 'bisect':
    case 'subtree':
      return true;
    case 'submodule':
      return s.path?.includes('update') === true;
    case 'lfs':
      return s.path?.[1] === 'pull' || s.path?.[1] === 'checkout';
    case 'checkout':
      return !has('-b', '--orphan');
    case 'switch':
      return !has('--create', '--orphan');
    case 'reset':
      return has('--hard', '--keep', '--merge');
    case 'restore':
      return has('--source');
    case 'read-tree':
      return has('-u');
    // `git stash` (push, save) puts HEAD's files back; apply, pop and branch put the stash's.
    case 'stash':
      return s.path?.[1] === undefined || /^(push|save|apply|pop|branch|-.*)$/.test(s.path[1] ?? '');
    default:
      return false;
  }
}

/** Whether directory `dir` (as written: `.`, `build/`, `/srv/app`) holds `path`. */
function holds(dir: string, path: string): boolean {
  if (dir === '.' || dir === '') return !path.startsWith('/') && !path.startsWith('../');
  const d = dir.replace(/\/+$/, '');
  return path.startsWith(`${d}/`);
}

/** Compilers and linkers whose output is a machine program (not text a shell could run). */
const BUILDS_PROGRAMS = new Set('cc gcc g++ c++ clang clang++ tcc ld ld.lld gold rustc swiftc'.split(' '));
/** Options that make a compiler write text instead: preprocessed source, assembly, dependencies, IR. */
const TEXT_OUTPUT = /^(-E|-S|-M|-MM|-dM|-P|--preprocess|--assemble|-emit-llvm|--emit)/;

/**
 * A compiler or linker building a program: what it writes is a program built from the project's
 * sources, judged like any other compiled program, not text to read. Not when it writes text
 * (`cc -E -o run.sh x.c` is a script made from whatever x.c holds).
 */
function buildsProgram(segment: { program: string; args: string[] }): boolean {
  if (segment.program === 'go') return segment.args[0] === 'build' || segment.args[0] === 'install';
  return BUILDS_PROGRAMS.has(segment.program) && !segment.args.some((a) => TEXT_OUTPUT.test(a));
}
/** Programs whose writes change a file's mode, times or existence as a directory, never a file's text. */
const KEEPS_TEXT = new Set([...METADATA_ONLY, ...LEAVES_NOTHING]);
