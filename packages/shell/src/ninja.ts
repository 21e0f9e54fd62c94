// ninja loads build.ninja (or `-f FILE`, under `-C DIR`) and the files it includes or subninjas: the
// rules' commands are the project's own code, not judged here, but the files are listed as files the
// command runs, so one the session wrote and has not read since is refused. `ninja -t clean` and
// `-t cleandead` delete the outputs the file lists: those outside the project (absolute, `..`, a
// variable ninja's file leaves unknown) or hidden ones (`.git/…`) are judged as an `rm -f` of them.
import { posix } from 'node:path';
import type { Extractor, Invocation } from './extract.js';
import { judgeShellText, noteScript } from './scripts.js';

const MAX_FILES = 8;
const MAX_JUDGED = 200;
const MAX_BYTES = 8 << 20;
/** Stands for an expansion the file leaves unknown: the shell parser reads it as an unresolved variable. */
const UNKNOWN = '$__ninja_unknown';

interface NinjaArgs {
  dir: string;
  file: string;
  tool?: string;
}

/** `-C DIR`, `-f FILE`, `-t TOOL` (attached or not); other options take no file. */
function readArgs(args: readonly string[]): NinjaArgs {
  const out: NinjaArgs = { dir: '.', file: 'build.ninja' };
  for (let k = 0; k < args.length; k++) {
    const m = /^-([Cft])(.*)$/.exec(args[k] as string);
    if (!m) {
      if (/^-[jkldw]$/.test(args[k] as string)) k++;
      continue;
    }
    const value = m[2] !== '' ? (m[2] as string) : (args[++k] ?? '');
    if (m[1] === 'C') out.dir = posix.join(out.dir, value);
    else if (m[1] === 'f') out.file = value;
    else out.tool ??= value;
    // ninja stops reading its own options at the tool's name: the rest are the tool's.
    if (m[1] === 't') break;
  }
  return out;
}

/** One logical line per entry: `$` at a line's end continues it. */
function logicalLines(text: string): string[] {
  return text.replace(/\$\r?\n[ \t]*/g, '').split(/\r?\n/);
}

/** ninja's expansion of a path: `$$`, `$ `, `$:`, `$name`, `${name}`; unknown names are UNKNOWN. */
function expandPath(text: string, vars: ReadonlyMap<string, string>): string {
  return text.replace(
    /\$(\$|:| |\{([\w.-]+)\}|([\w-]+))/g,
    (_all, c: string, braced?: string, bare?: string) => {
      const name = braced ?? bare;
      if (name === undefined) return c;
      return vars.get(name) ?? UNKNOWN;
    },
  );
}

/** The outputs of a `build` line (explicit and implicit), as written: split at unescaped spaces, up to its `:`. */
function buildOutputs(rest: string): string[] {
  const outs: string[] = [];
  let word = '';
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i] as string;
    if (c === '$' && i + 1 < rest.length) {
      word += c + (rest[++i] as string);
      continue;
    }
    if (c === ':' || c === ' ' || c === '\t') {
      if (word !== '' && word !== '|') outs.push(word);
      word = '';
      if (c === ':') return outs;
      continue;
    }
    word += c;
  }
  return outs;
}

interface Parsed {
  outputs: string[];
  vars: Map<string, string>;
  /** A file that could not be read (too big): its outputs are not known. */
  unknown: boolean;
}

/** Reads a build file and its includes: top-level bindings and build outputs (relative to `dir`). */
function parseNinja(ex: Extractor, dir: string, file: string, into: Parsed, seen: string[]): void {
  const path = posix.join(dir, file);
  if (seen.length >= MAX_FILES || seen.includes(path)) return;
  seen.push(path);
  const real = ex.res.paths(path);
  if (real.unresolved || real.paths.length !== 1) return;
  const files = ex.res.files;
  const abs = real.paths[0] as string;
  if (!files || files.realpath(abs) === undefined || files.readdir(abs) !== undefined) return;
  noteScript(ex.res, abs);
  const text = files.readText(abs, MAX_BYTES);
  if (text === undefined) {
    into.unknown = true;
    return;
  }
  for (const line of logicalLines(text)) {
    const bind = /^([\w.-]+)\s*=\s*(.*)$/.exec(line);
    if (bind) into.vars.set(bind[1] as string, expandPath(bind[2] as string, into.vars));
    const inc = /^(?:include|subninja)\s+(.+)$/.exec(line);
    if (inc) parseNinja(ex, dir, expandPath((inc[1] as string).trim(), into.vars), into, seen);
    const build = /^build\s+(.*)$/.exec(line);
    if (build)
      for (const out of buildOutputs(build[1] as string)) into.outputs.push(expandPath(out, into.vars));
  }
}

/** An output whose removal may reach past the build: outside the project, hidden, or unknown. */
function risky(path: string): boolean {
  return (
    path.startsWith('/') ||
    path.startsWith('~') ||
    /(^|\/)\.\.(\/|$)|(^|\/)\.[^./]/.test(path) ||
    path.includes('$')
  );
}

/** Single-quoted for the shell, a variable stand-in left bare so it reads as unresolved. */
const quote = (word: string): string =>
  word.includes(UNKNOWN) ? word.replace(/[^\w$/.-]/g, '_') : `'${word.replace(/'/g, "'\\''")}'`;

/** The files `ninja` loads (listed as run), and for `-t clean|cleandead` the outputs it deletes. */
export function runNinja(ex: Extractor, inv: Invocation, args: readonly string[]): void {
  if (!ex.res.files) return;
  const { dir, file, tool } = readArgs(args);
  const parsed: Parsed = { outputs: [], vars: new Map(), unknown: false };
  parseNinja(ex, dir, file, parsed, []);
  if (tool !== 'clean' && tool !== 'cleandead') return;
  if (parsed.unknown) ex.flag('unreadable_script', inv.text.slice(0, 160));
  // An unbound variable may stand for an absolute path (ninja reads it as empty): left unanchored.
  const anchored = (o: string) => o.startsWith('/') || o.startsWith(UNKNOWN);
  const judged = parsed.outputs.filter(risky).map((o) => (anchored(o) ? o : posix.join(dir, o)));
  if (judged.length > MAX_JUDGED)
    ex.flag('limit', `${inv.text.slice(0, 160)} (more than ${MAX_JUDGED} outputs)`);
  if (judged.length > 0)
    judgeShellText(
      ex,
      inv,
      `rm -f -- ${judged.slice(0, MAX_JUDGED).map(quote).join(' ')}`,
      `ninja -t ${tool}`,
    );
}
