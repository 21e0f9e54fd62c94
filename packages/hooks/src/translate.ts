// The host-neutral hook translation: one tool event, already in the canonical shape (Claude Code's
// names: Bash for the shell, Write/Edit/Read/..., mcp__<server>__<tool>), → core (check,
// recordObservation, settle) → a neutral decision that each host adapter shapes into its own answer
// (claude-code.ts, hosts/*.ts). No rule or message lives here; the verdict and its rails come from core.
import type { Call, ClaimResult, Verdict } from '@tollgate/contracts';
import {
  callDigest,
  directiveInForce,
  escapedJson,
  HOST_DIRECTIVE_KINDS,
  isGated,
  recordDirective,
  sanitiseText,
  sessionBrief,
  systemClock,
} from '@tollgate/core';
import type { ShellFacts } from '@tollgate/shell';
import { openDispatch } from './decision-row.js';
import type { HookDeps } from './deps.js';
import { hostApproval } from './host-review.js';
import type { HookInput } from './input.js';
import { isReadTool, responseText } from './reads.js';
import { shellWord } from './shell-word.js';
import { type BoundSubcommand, type TicketCommand, ticketCommand } from './ticket-command.js';

/** Who is speaking: the names a host's events are recorded under and the words its agent reads. */
export interface HostInfo {
  /** The call's agent and the observations' agent (claude-code, codex, gemini, cursor, copilot). */
  agent: string;
  /** recorded_by of what the hook records (hook:<agent>). */
  recordedBy: string;
  /** The host's name for the agent (Claude Code, Codex, ...). */
  label: string;
  /** The host's shell tool as its agent knows it (Bash, run_shell_command, ...). */
  shellTool: string;
}

/** What the gate decided about one event, before a host shapes it. */
export type HookDecision =
  /**
   * Pre-tool: do not run it; the reason is for the model. `reviewId`: the call waits for a person's
   * review, which a host with a person at its prompt may put to them instead (claude-code.ts).
   */
  | { kind: 'deny'; reason: string; reviewId?: string }
  /** Pre-tool: no objection (never a grant); optional context for the model. */
  | { kind: 'pass'; context?: string }
  /** Pre-tool: a `tollgate predict|decline|observe|check` from the agent's shell, to be bound to this session. */
  | { kind: 'bind'; ticket: Extract<TicketCommand, { kind: 'ticket' }>; note: string }
  /** Post-tool or session event: recorded; optional context for the model. */
  | { kind: 'noted'; context?: string };

export const CLAUDE_CODE: HostInfo = {
  agent: 'claude-code',
  recordedBy: 'hook:claude-code',
  label: 'Claude Code',
  shellTool: 'Bash',
};

/**
 * Whether a shell command runs this tollgate, and how (see ticket-command.ts), resolved where it runs.
 * Asked twice of one pre-tool call (before the check, and when binding after it): the answer is kept
 * per input. `parsed`: the decision's parse memo, which the gate's check then shares.
 */
export function tollgateIn(
  command: string,
  input: HookInput,
  deps: HookDeps,
  parsed?: Map<string, ShellFacts>,
): TicketCommand {
  const known = ticketsAsked.get(input);
  if (known !== undefined && known.command === command && known.deps === deps) return known.ticket;
  const ticket = ticketFor(command, input, deps, parsed);
  ticketsAsked.set(input, { command, deps, ticket });
  return ticket;
}

const ticketsAsked = new WeakMap<HookInput, { command: string; deps: HookDeps; ticket: TicketCommand }>();

function ticketFor(
  command: string,
  input: HookInput,
  deps: HookDeps,
  parsed: Map<string, ShellFacts> | undefined,
): TicketCommand {
  const r = deps.resolve;
  if (!r) return ticketCommand(command, selfRoots(deps.self));
  const context = {
    cwd: input.cwd ?? deps.cwd,
    files: r.files,
    ...(r.home !== undefined ? { home: r.home } : {}),
    ...(r.path !== undefined ? { path: r.path } : {}),
    ...(r.env !== undefined ? { env: r.env } : {}),
    ...(parsed !== undefined ? { parsed } : {}),
  };
  return ticketCommand(command, selfRoots(deps.self), { context, identity: r.identity });
}

const MCP_NAME = /^mcp__(.+?)__(.+)$/;

/**
 * The tool, action and args a host tool call is classified and bound by. An MCP tool reaches the
 * hook as `mcp__<server>__<tool>`, but rules (contracts/policies/mcp.yaml) name the bare tool
 * (`write_file`): the bare name is the tool, and the full name is kept as the action, so the audit
 * shows which server it was and a prediction binds to that server's tool only. `tollgate predict
 * --tool NAME --args JSON` builds the same call, so it files under the digest this hook computes.
 */
export function toolCall(
  name: string,
  args: Record<string, unknown>,
): Pick<Call, 'tool' | 'action' | 'args'> {
  const mcp = MCP_NAME.exec(name);
  if (mcp?.[2]) return { tool: mcp[2], action: name, args };
  return { tool: name, args };
}

/** The Call a hook input stands for: Bash is the shell tool; any other tool is its own name and input (MCP tools by their bare name, see toolCall). */
export function callFor(input: HookInput, agent = CLAUDE_CODE.agent): Call | { problem: string } {
  const base = {
    session: input.session_id,
    agent,
    ...(input.tool_use_id ? { host_ref: input.tool_use_id.slice(0, 256) } : {}),
  };
  if (input.tool_name !== 'Bash') return { ...base, ...toolCall(input.tool_name, input.tool_input) };
  const command = input.tool_input.command;
  if (typeof command !== 'string') return { problem: 'the shell call has no "command" string' };
  if (command.trim() === '') return { problem: 'the shell command is empty: there is nothing to run' };
  return { ...base, tool: 'shell', args: { command } };
}

/** One canonical event → the gate → a neutral decision. */
export async function translate(input: HookInput, deps: HookDeps, host: HostInfo): Promise<HookDecision> {
  switch (input.hook_event_name) {
    case 'PreToolUse':
      return preToolUse(input, deps, host);
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return postToolUse(input, deps, host);
    case 'UserPromptSubmit':
    case 'SessionStart':
      return sessionEvent(input, deps, host);
  }
}

/**
 * What the agent was told is recorded as the session's directive (never evidence); on SessionStart
 * the agent is also told that the gate is on and what it asks.
 */
async function sessionEvent(input: HookInput, deps: HookDeps, host: HostInfo): Promise<HookDecision> {
  const event = input.hook_event_name;
  const text = event === 'UserPromptSubmit' ? (input.prompt ?? '') : `session ${input.source ?? 'startup'}`;
  await recordDirective(deps.gate, {
    session: input.session_id,
    agent: host.agent,
    kind: event,
    text,
    recordedBy: host.recordedBy,
    attested: deps.attested ?? true,
  });
  if (event !== 'SessionStart') return { kind: 'noted' };
  return { kind: 'noted', context: sessionBrief(deps.gate.policy, deps.gate.mode) };
}

type PreShape = (v: Verdict, input: HookInput, deps: HookDeps, host: HostInfo) => HookDecision;

// How each verdict outcome reaches the agent; a new outcome without a mapping does not compile.
const PRE: Record<Verdict['outcome'], PreShape> = {
  rejected: (v, input, _deps, host) => ({
    kind: 'deny',
    reason: rejectionText(v, input, host),
    ...(v.review_id !== undefined ? { reviewId: v.review_id } : {}),
  }),
  declined: (v) => ({
    kind: 'deny',
    reason: `Tollgate: your decline was recorded (decline ${v.decline_id ?? '?'}, audit ${v.audit_id ?? '?'}) and nothing was done — the call did not run. Declining is a fine outcome, not an error: carry on with other work or tell the user what would let you predict.`,
  }),
  dispatch: (v) => ({
    kind: 'pass',
    context: `Tollgate: prediction ${v.prediction_id ?? '?'} accepted for this call (audit ${v.audit_id ?? '?'}). After it runs the gate re-reads the claim subjects it can and records predicted vs observed.`,
  }),
  pass: (v, input, deps, host) => passOrBind(v, input, deps, host),
};

async function preToolUse(input: HookInput, deps: HookDeps, host: HostInfo): Promise<HookDecision> {
  const call = callFor(input, host.agent);
  if ('problem' in call) return { kind: 'deny', reason: `Tollgate refused this call: ${call.problem}.` };
  // One parse of the command for this decision, shared by the look below and the gate's check.
  const parsed = new Map<string, ShellFacts>();
  if (call.tool === 'shell') {
    const ticket = tollgateIn(String(call.args.command), input, deps, parsed);
    if (ticket.kind === 'operator') return { kind: 'deny', reason: operatorDenial(ticket.subcommand, host) };
  }
  // The directive in force (the user's last prompt) rides with the call: the audit row shows it and
  // its latency, and a quote found only in it is not evidence.
  const directive = await directiveInForce(deps.store, input.session_id, HOST_DIRECTIVE_KINDS);
  if (directive !== undefined) call.directive = directive;
  // The command runs in the host's working directory: globs, `cd`, relative writes resolve there.
  const verdict = await deps.gate.check(call, {
    channel: 'claude-code',
    ...(input.cwd ? { cwd: input.cwd } : {}),
    // Bash's run_in_background returns at once: what the command writes may land after later reads.
    ...(input.tool_name === 'Bash' && input.tool_input.run_in_background === true ? { detached: true } : {}),
    parsed,
  });
  if (verdict.outcome === 'dispatch' && call.tool === 'shell' && verdict.audit_id !== undefined)
    deps.onDispatch?.(verdict.audit_id);
  return PRE[verdict.outcome](verdict, input, deps, host);
}

/**
 * Why the agent may not run this tollgate command itself: override grants itself a way past the gate,
 * hook lets it forge the host's own tool events, init/uninstall/serve/mcp reconfigure, remove or
 * replace the gate.
 */
function operatorDenial(subcommand: string, host: HostInfo): string {
  const what = subcommand === '' ? 'this tollgate command' : `\`tollgate ${sanitiseText(subcommand, 40)}\``;
  return `Tollgate: this command runs the tollgate CLI itself (${what}), which is for human operators and the host, and is never run on an agent's behalf, whatever launcher runs it (npx, npm exec, pnpm dlx, node .../tollgate.js, a wrapper): override would grant the agent its own way past the gate, hook would forge the host's tool events, and init, uninstall, serve, mcp and run would reconfigure, remove or bypass the gate. From ${host.shellTool} you may run tollgate predict, decline, check, classify, rules, doctor, observe and audit list|show|report|verify. To get past the gate, file a prediction or a decline (tollgate predict|decline), or ask the user.`;
}

const HTTP_ROUTES: Record<BoundSubcommand, { route: string; field: string }> = {
  predict: { route: '/v1/predictions', field: 'prediction' },
  decline: { route: '/v1/declines', field: 'decline' },
  check: { route: '/v1/check', field: 'envelope' },
  observe: { route: '/v1/observations', field: 'output' },
};

function httpTicketDenial(subcommand: BoundSubcommand, session: string, host: HostInfo): string {
  const { route, field } = HTTP_ROUTES[subcommand];
  return `Tollgate: this gate runs as an HTTP service, so \`tollgate ${subcommand}\` from ${host.shellTool} is not bound to your session here (nothing was run or recorded). File it with POST ${route} and your own bearer token instead: {"call": {"tool": "shell", "args": {"command": "<the exact command>"}, "session": ${JSON.stringify(sanitiseText(session, 256))}}, "${field}": {...}} (for an MCP tool: "tool": "<bare tool name>", "action": "mcp__<server>__<tool>", "args": <its exact arguments>). Then retry the call unchanged.`;
}

/** Directories of the installed tollgate (for [node, /abs/packages/cli/bin/tollgate.js]: /abs/packages/cli). */
export function selfRoots(self: readonly string[]): string[] {
  const script = self.find((w) => /^\/.+\.[cm]?js$/.test(w));
  if (!script) return [];
  const parts = script.split('/');
  return parts.length > 3 ? [parts.slice(0, -2).join('/')] : [];
}

function rejectionText(v: Verdict, input: HookInput, host: HostInfo): string {
  if (v.rails) {
    const text = shellWords(v.rails.text, host);
    return input.tool_name === 'Bash' ? text : toolRails(text, input, host);
  }
  const reasons = v.reasons.map((r) => `[${r.code}] ${sanitiseText(r.message, 600)}`).join('\n');
  return `Tollgate (an automated gate you can satisfy) held this call:\n${reasons}`;
}

/** Core's hook rails name Claude Code's shell tool; another host's agent reads its own tool's name. */
function shellWords(text: string, host: HostInfo): string {
  if (host.shellTool === 'Bash') return text;
  return text
    .split('\n')
    .map((l) =>
      l.startsWith('Run each read above as its own Bash command') ||
      l.startsWith('Then file a prediction through Bash')
        ? l.replace(' Bash', ` ${host.shellTool}`)
        : l,
    )
    .join('\n');
}

const MAX_ARGS_TEXT = 2000;

/**
 * A tool call other than the shell (an MCP tool, a file edit) cannot carry a prediction (hosts drop
 * unknown arguments), so the agent files it from its shell with --tool/--args, bound to the digest
 * this hook computes. The rails' shell lines speak of commands; here they name the tool call instead.
 */
function toolRails(text: string, input: HookInput, host: HostInfo): string {
  // The args as escaped JSON parse to the very same arguments (the digest still binds) but show no
  // invisible or line-breaking character; the name is one sanitised line (a name that needs
  // sanitising binds nothing, so the call stays refused).
  const argsJson = escapedJson(input.tool_input);
  const args = argsJson.length <= MAX_ARGS_TEXT ? shellWord(argsJson) : "'<the same arguments, as JSON>'";
  const name = sanitiseText(input.tool_name, 256);
  const shown = sanitiseText(input.host_tool_name ?? input.tool_name, 256);
  const target = `--tool ${shellWord(name)} --args ${args}`;
  const file = `Then file a prediction through ${host.shellTool} (this tool call cannot carry one): tollgate predict ${target} --json-doc '<prediction JSON>'   (or tollgate decline ${target} --json-doc '<decline JSON>')`;
  const retry = `Then call ${shown} again with exactly the same arguments.`;
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('Then file a prediction through '));
  if (at < 0) return `${text}\n${file}\n${retry}`;
  lines[at] = file;
  const again = lines.findIndex((l) => l.startsWith('Then retry the exact same command'));
  if (again >= 0) lines[again] = retry;
  const mcp = MCP_NAME.exec(input.tool_name);
  const reads = lines.findIndex((l) => l.startsWith('Run each read above as its own '));
  if (reads >= 0 && mcp)
    lines[reads] =
      `Make each read above (a tool name is mcp__${sanitiseText(mcp[1] ?? '', 128)}__<tool>; a command runs in ${host.shellTool}); the gate records its output.`;
  return lines.join('\n');
}

function passOrBind(v: Verdict, input: HookInput, deps: HookDeps, host: HostInfo): HookDecision {
  const command = input.tool_name === 'Bash' ? input.tool_input.command : undefined;
  if (typeof command !== 'string') return { kind: 'pass' };
  const ticket = tollgateIn(command, input, deps);
  if (ticket.kind === 'none' || ticket.kind === 'agent') return { kind: 'pass' };
  if (ticket.kind === 'operator') return { kind: 'deny', reason: operatorDenial(ticket.subcommand, host) };
  if (ticket.kind === 'refused') {
    return {
      kind: 'deny',
      reason: `Tollgate could not bind this ${'`tollgate`'} command to your session: ${ticket.problem}. Then run it again.`,
    };
  }
  if (deps.ticketsOverHttp)
    return {
      kind: 'deny',
      reason: httpTicketDenial(ticket.subcommand, deps.ticketsOverHttp.session, host),
    };
  return {
    kind: 'bind',
    ticket,
    note: `Tollgate bound this ${ticket.subcommand} to the ${host.label} session (audit ${v.audit_id ?? '?'}).`,
  };
}

async function postToolUse(input: HookInput, deps: HookDeps, host: HostInfo): Promise<HookDecision> {
  const event = input.hook_event_name;
  const call = callFor(input, host.agent);
  if ('problem' in call) return { kind: 'noted' };
  const classification = deps.gate.classify(call, undefined, input.cwd);
  if (isGated(classification.class)) {
    const pairing = await pairWithPre(input, call, deps);
    await recordResult(input, call, deps, host, pairing);
    const approved = await hostApproval(input, call, deps, host);
    if (approved !== undefined) return { kind: 'noted', context: approved };
    // A second report of the same tool-use id settles nothing: the first one did, or will.
    if (pairing === 'taken') return { kind: 'noted', context: secondReport(input) };
    return recordDispatch(input, call, deps, host);
  }
  if (event === 'PostToolUseFailure') return { kind: 'noted' };
  if (!isReadTool(input.tool_name)) {
    const pairing = await pairWithPre(input, call, deps);
    await recordResult(input, call, deps, host, pairing);
    return pairing === 'taken' ? { kind: 'noted', context: secondReport(input) } : { kind: 'noted' };
  }
  // The agent's own tollgate commands (also the rewritten predict/decline line) are not evidence sources.
  if (input.tool_name === 'Bash' && tollgateIn(String(call.args.command), input, deps).kind !== 'none')
    return { kind: 'noted' };
  const source = call.tool === 'shell' ? String(call.args.command) : { tool: call.tool, args: call.args };
  const pairing = await pairWithPre(input, call, deps);
  const observation = await deps.gate.recordObservation({
    session: input.session_id,
    agent: host.agent,
    source,
    output: responseText(input.tool_response),
    recordedBy: host.recordedBy,
    attested: pairing === 'paired',
    ...(input.cwd !== undefined ? { cwd: input.cwd } : {}),
  });
  if (pairing === 'taken')
    return {
      kind: 'noted',
      context: `${secondReport(input)} Recorded as observation ${observation.id}, not attested.`,
    };
  const cite = typeof source === 'string' ? `{"source": ${JSON.stringify(sanitiseText(source, 300))}}` : '';
  return {
    kind: 'noted',
    context: `Tollgate recorded this read as observation ${observation.id}. To cite it as evidence use {"observation": "${observation.id}", "quote": "<text from this output>"}${cite ? ` or ${cite.slice(0, -1)}, "quote": "…"}` : ''}.`,
  };
}

function secondReport(input: HookInput): string {
  return `Tollgate: the host already reported the call with tool-use id ${sanitiseText(input.tool_use_id ?? '', 128)}; a second report of it is not attested and settles nothing.`;
}

/**
 * What a call that is not a read returned, recorded against it (kind `result`): preconditions read a
 * diagnostic's verdict from it; it is never evidence for a prediction. Attested only when paired.
 */
async function recordResult(
  input: HookInput,
  call: Call,
  deps: HookDeps,
  host: HostInfo,
  pairing: Pairing,
): Promise<void> {
  if (input.hook_event_name !== 'PostToolUse') return;
  await deps.gate.recordObservation({
    session: input.session_id,
    agent: host.agent,
    source: call.tool === 'shell' ? String(call.args.command) : { tool: call.tool, args: call.args },
    output: responseText(input.tool_response),
    recordedBy: host.recordedBy,
    attested: pairing === 'paired',
    kind: 'result',
  });
}

/**
 * How a post-tool event stands to the pre-tool decision it claims to report on. `paired`: a decision
 * row of this session for the same call carries the same tool-use id and let it run, and this is the
 * first post event for that id (Store.claimHostPost): the gate saw the call decided, so what the host
 * reports it returned is attested. `taken`: such a row exists but a post event for the id came
 * before — a forgery carrying an id read from the host's transcript, or a replay; the first report
 * wins. `unpaired`: no such row (a post event made up by anything else, a host that gives no per-call
 * id, a caller whose posts are never attested): recorded, never attested, claims nothing.
 */
type Pairing = 'paired' | 'taken' | 'unpaired';

async function pairWithPre(input: HookInput, call: Call, deps: HookDeps): Promise<Pairing> {
  if (!input.tool_use_id || deps.attested === false) return 'unpaired';
  const rows = await deps.store.recentDecisions(input.session_id, callDigest(call), 8);
  const decided = rows.some(
    (r) => r.host_ref === input.tool_use_id && (r.outcome === 'pass' || r.outcome === 'dispatch'),
  );
  if (!decided) return 'unpaired';
  const at = (deps.clock ?? systemClock).now();
  return (await deps.store.claimHostPost(input.session_id, input.tool_use_id, at)) ? 'paired' : 'taken';
}

async function recordDispatch(
  input: HookInput,
  call: Call,
  deps: HookDeps,
  host: HostInfo,
): Promise<HookDecision> {
  const event = input.hook_event_name;
  const row = await openDispatch(deps.store, input.session_id, callDigest(call));
  if (!row) return { kind: 'noted' };
  // A decision taken with the host's tool-use id is settled only by a report carrying that id (the
  // first one: a second is 'taken' above): another report of the same command — no id, another id —
  // would write its outcome.
  if (row.host_ref !== undefined && row.host_ref !== input.tool_use_id)
    return {
      kind: 'noted',
      context: `Tollgate: this report does not pair with the decision ${row.id} (its tool-use id differs); it settles nothing.`,
    };
  const failed = event === 'PostToolUseFailure';
  const probe = deps.probe;
  const { claims } = await deps.gate.settle(row.id, input.session_id, {
    status: failed ? 'error' : 'ok',
    summary: sanitiseText(failed ? responseText(input.error) : responseText(input.tool_response), 200),
    agent: host.agent,
    ...(probe ? { observe: (subject) => probe(subject, input.cwd ?? deps.cwd) } : {}),
  });
  return { kind: 'noted', context: `Tollgate recorded the outcome of ${row.id}: ${claimLine(claims)}.` };
}

function claimLine(claims: readonly ClaimResult[]): string {
  if (claims.length === 0) return 'no claims to check';
  const count = (r: ClaimResult['result']) => claims.filter((c) => c.result === r).length;
  return `claims matched ${count('matched')}, mismatched ${count('mismatched')}, unverifiable ${count('unverifiable')}`;
}
