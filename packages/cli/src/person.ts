// Whether a person, not the agent, runs an operator command (override, audit anchor, store reset, an
// init that changes existing settings). Proof is an operator token of the config in
// TOLLGATE_OPERATOR_TOKEN; or, when the config lists none, an interactive terminal (stdin and stderr
// TTYs) with no agent host among this process's ancestors or in its environment. A terminal alone
// proves nothing: an agent can allocate one with script(1). Off Linux (no /proc) the ancestry cannot
// be seen, so only the token path is open there.
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UsageError } from './errors.js';

export interface Ancestor {
  pid: number;
  argv: readonly string[];
  /** Undefined when it cannot be read (another user's process). */
  env?: Readonly<Record<string, string>>;
}

/** The process's ancestors, parent first, up to pid 1; undefined when they cannot be seen. */
export type AncestorSource = () => readonly Ancestor[] | undefined;

export interface OperatorToken {
  token: string;
  agent: string;
  operator?: boolean;
}

export interface PersonCheck {
  tokens: readonly OperatorToken[];
  env: NodeJS.ProcessEnv;
  /** stdin and stderr are both TTYs. */
  interactive: boolean;
  /** What is being done, for messages: "overrides", "anchoring the audit chain", ... */
  doing: string;
  ancestors?: AncestorSource;
}

/** Who: the token's agent name, or a terminal user whose name the command takes from a flag or the OS. */
export type Person = { via: 'token'; name: string } | { via: 'terminal' };

const TOKEN_FIX =
  'an operator lists a token in tollgate.config.yaml (tokens: [{token, agent, operator: true}]), accepts that change at a terminal (tollgate config accept), and runs the command with TOLLGATE_OPERATOR_TOKEN set to it';

export function requirePerson(check: PersonCheck): Person {
  const operators = check.tokens.filter((t) => t.operator === true);
  const presented = check.env.TOLLGATE_OPERATOR_TOKEN;
  if (presented) {
    const held = matchToken(operators, presented);
    if (!held)
      throw new UsageError(
        `${check.doing} are operator-only: TOLLGATE_OPERATOR_TOKEN does not hold an operator token of the config`,
        'set TOLLGATE_OPERATOR_TOKEN to a token with operator: true in the accepted tollgate.config.yaml (a token added since counts once a person runs tollgate config accept)',
      );
    return { via: 'token', name: held.agent };
  }
  if (operators.length > 0)
    throw new UsageError(
      `${check.doing} are operator-only: set TOLLGATE_OPERATOR_TOKEN to one of the operator tokens in the config`,
      'an operator runs: TOLLGATE_OPERATOR_TOKEN=<operator token> tollgate ...',
    );
  const own = agentHostInEnv(check.env);
  if (own)
    throw new UsageError(
      `${check.doing} are operator-only and this runs inside an agent session (${own} in the environment), so an agent may be the one asking; nothing was done`,
      `a person runs it from their own terminal, outside any agent session; or ${TOKEN_FIX}`,
    );
  if (!check.interactive)
    throw new UsageError(
      `${check.doing} are operator-only and this is not an interactive terminal (stdin and stderr must be a TTY), so no person is known to be asking; nothing was done`,
      `a person runs it from their own terminal; or ${TOKEN_FIX}`,
    );
  const chain = (check.ancestors ?? procAncestors)();
  if (chain === undefined)
    throw new UsageError(
      `${check.doing} are operator-only, and this system does not show the process ancestry (no /proc), so a terminal cannot be told apart from an agent's; nothing was done`,
      TOKEN_FIX,
    );
  const host = agentHostAmong(chain);
  if (host)
    throw new UsageError(
      `${check.doing} are operator-only and an agent host runs this terminal (${host}), so the agent may be the one asking; nothing was done`,
      `a person runs it from a terminal of their own, not one an agent started; or ${TOKEN_FIX}`,
    );
  return { via: 'terminal' };
}

// --- agent hosts ---

/** Programs that are agent hosts, by the name they run under or the package path they run from. */
const HOSTS: readonly { host: string; names: readonly string[]; paths: readonly string[] }[] = [
  { host: 'Claude Code', names: ['claude'], paths: ['@anthropic-ai/claude-code'] },
  { host: 'Codex', names: ['codex'], paths: ['@openai/codex'] },
  { host: 'Gemini CLI', names: ['gemini'], paths: ['@google/gemini-cli'] },
  { host: 'Cursor agent', names: ['cursor-agent'], paths: [] },
  { host: 'Copilot CLI', names: ['copilot'], paths: ['@github/copilot'] },
  { host: 'aider', names: ['aider'], paths: ['aider-chat'] },
  { host: 'opencode', names: ['opencode'], paths: ['opencode-ai'] },
  { host: 'goose', names: ['goose'], paths: [] },
];

/** Variables agent hosts set for the commands they run (inherited by everything below them). */
function envMarker(name: string): string | undefined {
  if (name === 'CLAUDECODE' || name === 'CLAUDE_CODE_ENTRYPOINT') return 'Claude Code';
  // CODEX_HOME is the user's own setting, not a sign of a running agent.
  if (name.startsWith('CODEX_') && name !== 'CODEX_HOME') return 'Codex';
  if (name === 'GEMINI_CLI') return 'Gemini CLI';
  if (name === 'CURSOR_AGENT' || name === 'CURSOR_TRACE_ID') return 'Cursor';
  if (name === 'OPENCODE') return 'opencode';
  return undefined;
}

export function agentHostInEnv(env: Readonly<Record<string, string | undefined>>): string | undefined {
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    const host = envMarker(name);
    if (host) return `${host}: ${name}`;
  }
  return undefined;
}

const INTERPRETER = /^(node|nodejs|bun|deno|python[0-9.]*|pypy[0-9.]*)$/;

/** The agent host a command line runs, if any. */
export function agentHostOfArgv(argv: readonly string[]): string | undefined {
  const first = programName(argv[0] ?? '');
  const names = [first];
  if (INTERPRETER.test(first)) {
    const m = argv.indexOf('-m');
    names.push(
      programName(m > 0 ? (argv[m + 1] ?? '') : (argv.find((a, i) => i > 0 && !a.startsWith('-')) ?? '')),
    );
  }
  const head = argv.slice(0, 4);
  for (const h of HOSTS) {
    if (names.some((n) => h.names.includes(n))) return h.host;
    if (head.some((a) => h.paths.some((p) => a.includes(`/${p}/`) || a.includes(`/node_modules/${p}`))))
      return h.host;
  }
  return undefined;
}

/** The first agent host among the ancestors (by command line or environment), named with its pid. */
export function agentHostAmong(chain: readonly Ancestor[]): string | undefined {
  for (const a of chain) {
    const byArgv = agentHostOfArgv(a.argv);
    if (byArgv) return `${byArgv}, pid ${a.pid}`;
    const byEnv = a.env ? agentHostInEnv(a.env) : undefined;
    if (byEnv) return `${byEnv}, pid ${a.pid}`;
  }
  return undefined;
}

function programName(word: string): string {
  const base = word.slice(word.lastIndexOf('/') + 1);
  return base.replace(/\.(c|m)?js$|\.py$|\.exe$/i, '').toLowerCase();
}

// --- /proc ---

/** Reads the chain from /proc: each parent's pid (stat), command line (cmdline) and, if readable, environment. */
export function procAncestors(start: number = process.pid, proc = '/proc'): Ancestor[] | undefined {
  const chain: Ancestor[] = [];
  let pid = parentOf(proc, start);
  for (let hops = 0; pid !== undefined && pid > 0 && hops < 128; hops++) {
    const argv = readNul(`${proc}/${pid}/cmdline`);
    const env = readNul(`${proc}/${pid}/environ`);
    chain.push({
      pid,
      argv: argv ?? [],
      ...(env ? { env: Object.fromEntries(env.map(splitVar)) } : {}),
    });
    if (pid === 1) return chain;
    const next = parentOf(proc, pid);
    // A parent whose stat cannot be read hides the rest of the chain: say "cannot tell".
    if (next === undefined) return undefined;
    pid = next;
  }
  return pid === undefined ? undefined : chain;
}

/** The parent pid from /proc/PID/stat (field 4, after the parenthesised name, which may hold spaces). */
function parentOf(proc: string, pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`${proc}/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  return Number.isInteger(ppid) && ppid >= 0 ? ppid : undefined;
}

function readNul(file: string): string[] | undefined {
  try {
    return readFileSync(file, 'utf8')
      .split('\0')
      .filter((w) => w !== '');
  } catch {
    return undefined;
  }
}

function splitVar(entry: string): [string, string] {
  const eq = entry.indexOf('=');
  return eq < 0 ? [entry, ''] : [entry.slice(0, eq), entry.slice(eq + 1)];
}

// --- tokens ---

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** The operator token equal to `presented`, comparing every one in constant time. */
function matchToken<T extends { token: string }>(tokens: readonly T[], presented: string): T | undefined {
  const mine = digest(presented);
  let found: T | undefined;
  for (const t of tokens) if (timingSafeEqual(mine, digest(t.token)) && !found) found = t;
  return found;
}
