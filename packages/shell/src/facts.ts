// parseShell: the package's one entry point. Normalises look-alikes, parses within bounds, walks
// the tree into segments and dynamic constructs, and turns every failure into a structured error
// (never a throw): a command that cannot be read is reported as dynamic, so it is gated.
import { ansible } from './ansible.js';
import { createBudget, LimitExceeded, ShellSyntaxError } from './budget.js';
import { reliedOn, removedOutputs, settleBuildOutputs } from './build-outputs.js';
import { database, interpreter } from './code.js';
import { atJob, tmux } from './deferred-runners.js';
import { runParts } from './dir-runners.js';
import { Extractor, type Handler } from './extract.js';
import type { ResolveContext } from './files.js';
import { definedRemotes } from './git-remotes.js';
import { movesHead } from './head-moves.js';
import { find, parallel, xargs } from './iterators.js';
import { normalizeCommand } from './normalize.js';
import { ed, emacs, less, programCommands, vim } from './option-commands.js';
import { Parser } from './parser.js';
import { patch } from './patch-files.js';
import { CD_COMMAND, Resolver } from './resolve.js';
import {
  commandOption,
  containerExec,
  evalHandler,
  flock,
  git,
  sftp,
  shell,
  source,
  ssh,
  trap,
  watch,
} from './runners.js';
import { checkScriptsWritten, projectCodeOf, scriptsOf } from './scripts.js';
import type { ParseOptions, ShellFacts } from './types.js';

/** Longer commands are not analysed: reported as an error and gated (an agent rarely sends 32 KiB of shell). */
export const MAX_COMMAND_LENGTH = 32 * 1024;
const DEFAULT_MAX_DEPTH = 24;
/**
 * A backstop against a pathological input, not a budget for ordinary ones: the other bounds (length,
 * commands, depth, scripts read, MAX_STEPS) already bound the work, and a 150-line script took 30 ms in a
 * cold hook process, where nothing is optimised. At 30 ms a longer script was gated on a busy machine
 * and passed on an idle one; the answer must not depend on the machine's load.
 */
const DEFAULT_DEADLINE_MS = 250;
/** `export GIT_DIR=…`, or `GIT_DIR=…` standing alone as a statement (not a prefix of one command). */
const EXPORTED_GIT_DIR =
  /\b(export|declare|typeset|readonly)\b[^;&|\n]*\bGIT_(DIR|WORK_TREE|COMMON_DIR|CONFIG_PARAMETERS|CONFIG_COUNT)\b|(^|[;&|\n(]\s*)GIT_(DIR|WORK_TREE|COMMON_DIR|CONFIG_PARAMETERS|CONFIG_COUNT)=\S*\s*($|[;&|\n)])/;
const LOOP = /(^|[^\w-])(while|until|for|select|function)(?![\w-])|\(\s*\)/;
/** `( cd DIR …`: a cd opening a subshell, whose directory does not leak to the shell around it. */
const SUBSHELL_CD = /(^|[^$\w])\(\s*(cd|pushd)(?![\w-])/g;

/** A heredoc: its operator, its delimiter (quoted or not), and its body up to the delimiter's line. */
const HEREDOC = /<<-?[ \t]*(['"]?)\\?(\w+)\1[^\n]*\n[\s\S]*?\n[ \t]*\2[ \t]*(?=\n|$)/g;
/** Words that run text in the shell itself (`. /dev/stdin <<EOF`, `eval "$(cat)"`): its body is then the shell's. */
const RUNS_HERE = /(^|[^\w-])(source|eval)(?![\w-])|(^|[\s;&|(])\.\s/;

/** The command without its heredocs' bodies, unless the shell may run one itself. */
function withoutHeredocBodies(text: string): string {
  if (!text.includes('<<') || RUNS_HERE.test(text)) return text;
  return text.replace(HEREDOC, '<<');
}

const HANDLERS: Record<string, Handler> = {
  ssh,
  sftp,
  eval: evalHandler,
  source,
  '.': source,
  trap,
  su: commandOption,
  runuser: commandOption,
  sg: commandOption,
  script: commandOption,
  at: atJob,
  batch: atJob,
  tmux,
  watch,
  flock,
  'run-parts': runParts,
  patch,
  xargs,
  parallel,
  find,
  git,
  kubectl: containerExec,
  oc: containerExec,
  docker: containerExec,
  podman: containerExec,
  nerdctl: containerExec,
  'docker-compose': containerExec,
  'podman-compose': containerExec,
  // Programs that run commands given as option values or in their script.
  tar: programCommands,
  bsdtar: programCommands,
  rsync: programCommands,
  zip: programCommands,
  man: programCommands,
  rg: programCommands,
  hyperfine: programCommands,
  sort: programCommands,
  sed: programCommands,
  vim: vim,
  ed,
  red: ed,
  vi: vim,
  nvim: vim,
  view: vim,
  ex: vim,
  gvim: vim,
  vimdiff: vim,
  less: less,
  emacs,
  emacsclient: emacs,
  xemacs: emacs,
  'emacs-nox': emacs,
  'emacs-gtk': emacs,
  'emacs-lucid': emacs,
  // An ad-hoc task's command line, run on every matched host.
  ansible,
};

export function parseShell(command: string, opts: ParseOptions = {}): ShellFacts {
  const parsed = opts.context?.parsed;
  if (parsed === undefined || typeof command !== 'string') return parseAnew(command, opts);
  const c = opts.context as ResolveContext;
  const key = JSON.stringify([command, c.cwd, c.home, c.path, c.env, opts.maxDepth, opts.deadlineMs]);
  const known = parsed.get(key);
  if (known !== undefined) return known;
  const facts = parseAnew(command, opts);
  parsed.set(key, facts);
  return facts;
}

/**
 * `headMoves`: a loop or function of the command moves HEAD (head-moves.ts); walked once, it may do
 * so before a push written above it, so the command is walked again with HEAD unknown from the start.
 */
function parseAnew(command: string, opts: ParseOptions, headMoves = false): ShellFacts {
  if (typeof command !== 'string') return failed('command is not a string', '');
  if (command.length > MAX_COMMAND_LENGTH) {
    return failed(`command longer than ${MAX_COMMAND_LENGTH} characters`, command.slice(0, 200));
  }
  if (command.includes('\0')) return failed('command contains a NUL byte', command.slice(0, 200));
  const { text, invalid } = normalizeCommand(command);
  const budget = createBudget(opts.maxDepth ?? DEFAULT_MAX_DEPTH, opts.deadlineMs ?? DEFAULT_DEADLINE_MS);
  const context = opts.context;
  context?.files?.begin?.();
  const res = new Resolver(context);
  // Look-alike characters were folded (`ｒｍ` read as rm): a name here is not the bytes the shell uses.
  res.folded = text !== command;
  const extractor = new Extractor(budget, HANDLERS, { shell, interpreter, database }, res);
  res.onReassign = (name) => extractor.flag('reassigned_variable', `${name}: ${text.slice(0, 180)}`);
  res.texts.push(text);
  // A loop or function may run a `cd` before commands written above it: directories are unknown.
  // Not a cd that opens a subshell (`(cd "$d" && make)`): it stays there; nor the words of a
  // heredoc's body (python's `for` and `read()`), which a program reads in a process of its own.
  const shellText = withoutHeredocBodies(text);
  if (CD_COMMAND.test(shellText.replace(SUBSHELL_CD, '$1(')) && LOOP.test(shellText)) res.dirs = null;
  // An exported GIT_DIR/GIT_WORK_TREE points later git commands at another repository, whose
  // configuration is not read here.
  const exportedGitDir = EXPORTED_GIT_DIR.test(text);
  if (exportedGitDir && /(^|[^\w-])git(?![\w-])/.test(text))
    extractor.flag('unresolved_config', text.slice(0, 200));
  const headUnknown = headMoves || exportedGitDir;
  if (headUnknown) res.headMayMove = true;
  try {
    const script = new Parser(text, budget).parseScript();
    extractor.walkScript(script, { ifs: ' \t\n' }, []);
    // Arithmetic that evaluates a value read at run time (`read n; echo $((n))`): its subscripts run.
    for (const source of res.arithmeticFindings()) extractor.flag('arithmetic_substitution', source);
    const { moverDeferred, pushDeferred } = res.order;
    if (!headUnknown && (moverDeferred || (pushDeferred && extractor.segments.some(movesHead))))
      return parseAnew(command, opts, true);
    // A script the command itself writes before running it: its contents now are not what runs.
    checkScriptsWritten(res, extractor.segments, (kind, path) => extractor.flag(kind, path));
    settleBuildOutputs(extractor.segments);
    // A bound of the file view answered for some word: what the command does is not fully known.
    if (context?.files?.exhausted) extractor.flag('resolution_incomplete', text.slice(0, 200));
  } catch (error) {
    if (error instanceof ShellSyntaxError || error instanceof LimitExceeded) {
      const kind = error instanceof LimitExceeded ? 'limit' : 'parse_error';
      return {
        segments: extractor.segments,
        dynamic: [...extractor.dynamic, { kind, text: text.slice(0, 200) }],
        error: error.message,
      };
    }
    // A bug here must not crash the gate: report it, and the command is gated as dynamic.
    return failed(
      `parser fault: ${error instanceof Error ? error.message : String(error)}`,
      text.slice(0, 200),
    );
  }
  const facts: ShellFacts = { segments: extractor.segments, dynamic: extractor.dynamic };
  const scripts = scriptsOf(res);
  if (scripts.length > 0) facts.scripts = scripts;
  const relied = reliedOn(res, extractor.segments);
  if (relied.length > 0) facts.relies_on = relied;
  const removes = removedOutputs(extractor.segments);
  if (removes.length > 0) facts.removes = removes;
  const code = projectCodeOf(res);
  if (code.length > 0) facts.loads_code = code;
  const defines = definedRemotes(res);
  if (defines.length > 0) facts.defines = defines;
  if (invalid) {
    facts.dynamic.push({ kind: 'invalid_text', text: text.slice(0, 200) });
    budget.soft.unshift('command contains unpaired surrogates');
  }
  if (budget.soft.length > 0) facts.error = [...new Set(budget.soft)].join('; ');
  return facts;
}

function failed(error: string, text: string): ShellFacts {
  return { segments: [], dynamic: [{ kind: 'parse_error', text }], error };
}
