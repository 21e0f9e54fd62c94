// The Claude Code hook translation, shared by `tollgate hook claude-code` (stdin/stdout) and the HTTP
// service's POST /v1/hooks/claude-code: a checked hook input → core (check, recordObservation,
// recordOutcome) → the hook JSON. No rule or message lives here; the verdict and its rails come from core.
import type { Call, ClaimResult, Verdict } from '@tollgate/contracts';
import {
  callDigest,
  directiveInForce,
  escapedJson,
  type Gate,
  HOST_DIRECTIVE_KINDS,
  isGated,
  recordDirective,
  type Store,
  sanitiseText,
  sessionBrief,
} from '@tollgate/core';
import type { FileView } from '@tollgate/shell';
import { openDispatch } from './decision-row.js';
import type { HookInput } from './input.js';
import { allowRewritten, deny, type HookOutput, noObjection, postContext } from './output.js';
import type { Probe } from './probe.js';
import { isReadTool, responseText } from './reads.js';
import type { SelfIdentity } from './self-identity.js';
import { shellWord } from './shell-word.js';
import {
  type BoundSubcommand,
  boundTicketCommand,
  type TicketCommand,
  ticketCommand,
} from './ticket-command.js';

export const AGENT = 'claude-code';
export const RECORDED_BY = 'hook:claude-code';

export interface HookDeps {
  gate: Gate;
  store: Pick<Store, 'listAudit' | 'recentDecisions' | 'findObservationsBySource'>;
  /** Re-reads probe-able claim subjects after a dispatched call. */
  probe?: Probe;
  /** How the agent's Bash reaches this tollgate (e.g. [node, /abs/bin/tollgate.js]). */
  self: readonly string[];
  /** Variables that point a `tollgate predict` process at the hook's store (TOLLGATE_DB, TOLLGATE_CONFIG). */
  storeEnv: Readonly<Record<string, string>>;
  /** Where probes run when the input names no cwd. */
  cwd: string;
  /**
   * Whether PostToolUse reads are recorded as attested (the gate saw the read pass). True for the
   * host's own hook process; over HTTP only for a token marked `hook: true`, since any other token
   * holder could post a made-up tool_response. Default true.
   */
  attested?: boolean;
  /**
   * Set by the HTTP hook route: a Bash `tollgate predict|decline` is not rewritten there (the line
   * would have to carry the store, a database URL with credentials); the agent is pointed to
   * POST /v1/predictions | /v1/declines with its own token, under this session name.
   */
  ticketsOverHttp?: { session: string };
  /**
   * How the hook resolves the programs the agent's shell would run (PATH, globs, symlinks) and
   * recognises this tollgate among them, renamed or copied. Without it only the words are read.
   */
  resolve?: { identity: SelfIdentity; files: FileView; home?: string; path?: string };
}

/** Whether a Bash command runs this tollgate, and how (see ticket-command.ts), resolved where it runs. */
function tollgateIn(command: string, input: HookInput, deps: HookDeps): TicketCommand {
  const r = deps.resolve;
  if (!r) return ticketCommand(command, selfRoots(deps.self));
  const context = {
    cwd: input.cwd ?? deps.cwd,
    files: r.files,
    ...(r.home !== undefined ? { home: r.home } : {}),
    ...(r.path !== undefined ? { path: r.path } : {}),
  };
  return ticketCommand(command, selfRoots(deps.self), { context, identity: r.identity });
}

const MCP_NAME = /^mcp__(.+?)__(.+)$/;

/**
 * The tool, action and args a host tool call is classified and bound by. An MCP tool reaches Claude
 * Code as `mcp__<server>__<tool>`, but rules (contracts/policies/mcp.yaml) name the bare tool
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
export function callFor(input: HookInput): Call | { problem: string } {
  const base = {
    session: input.session_id,
    agent: AGENT,
    ...(input.tool_use_id ? { host_ref: input.tool_use_id.slice(0, 256) } : {}),
  };
  if (input.tool_name !== 'Bash') return { ...base, ...toolCall(input.tool_name, input.tool_input) };
  const command = input.tool_input.command;
  if (typeof command !== 'string') return { problem: 'the Bash call has no "command" string' };
  if (command.trim() === '') return { problem: 'the Bash command is empty: there is nothing to run' };
  return { ...base, tool: 'shell', args: { command } };
}

export async function claudeCodeHook(input: HookInput, deps: HookDeps): Promise<HookOutput> {
  switch (input.hook_event_name) {
    case 'PreToolUse':
      return preToolUse(input, deps);
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return postToolUse(input, deps);
    case 'UserPromptSubmit':
    case 'SessionStart':
      return sessionEvent(input, deps);
  }
}

/**
 * What the agent was told is recorded as the session's directive (never evidence); on SessionStart
 * the agent is also told that the gate is on and what it asks.
 */
async function sessionEvent(input: HookInput, deps: HookDeps): Promise<HookOutput> {
  const event = input.hook_event_name;
  const text = event === 'UserPromptSubmit' ? (input.prompt ?? '') : `session ${input.source ?? 'startup'}`;
  await recordDirective(deps.gate, {
    session: input.session_id,
    agent: AGENT,
    kind: event,
    text,
    recordedBy: RECORDED_BY,
    attested: deps.attested ?? true,
  });
  if (event !== 'SessionStart') return postContext(event);
  return postContext(event, sessionBrief(deps.gate.policy, deps.gate.mode));
}

// How each verdict outcome reaches Claude Code; a new outcome without a mapping does not compile.
const PRE: Record<Verdict['outcome'], (v: Verdict, input: HookInput, deps: HookDeps) => HookOutput> = {
  rejected: (v, input) => deny(rejectionText(v, input)),
  declined: (v) =>
    deny(
      `Tollgate: your decline was recorded (decline ${v.decline_id ?? '?'}, audit ${v.audit_id ?? '?'}) and nothing was done — the call did not run. Declining is a fine outcome, not an error: carry on with other work or tell the user what would let you predict.`,
    ),
  dispatch: (v) =>
    noObjection(
      `Tollgate: prediction ${v.prediction_id ?? '?'} accepted for this call (audit ${v.audit_id ?? '?'}). After it runs the gate re-reads the claim subjects it can and records predicted vs observed.`,
    ),
  pass: (v, input, deps) => passOrBind(v, input, deps),
};

async function preToolUse(input: HookInput, deps: HookDeps): Promise<HookOutput> {
  const call = callFor(input);
  if ('problem' in call) return deny(`Tollgate refused this call: ${call.problem}.`);
  if (call.tool === 'shell') {
    const ticket = tollgateIn(String(call.args.command), input, deps);
    if (ticket.kind === 'operator') return deny(operatorDenial(ticket.subcommand));
  }
  // The directive in force (the user's last prompt) rides with the call: the audit row shows it and
  // its latency, and a quote found only in it is not evidence.
  const directive = await directiveInForce(deps.store, input.session_id, HOST_DIRECTIVE_KINDS);
  if (directive !== undefined) call.directive = directive;
  // The command runs in the host's working directory: globs, `cd`, relative writes resolve there.
  const verdict = await deps.gate.check(call, {
    channel: 'claude-code',
    ...(input.cwd ? { cwd: input.cwd } : {}),
  });
  return PRE[verdict.outcome](verdict, input, deps);
}

/**
 * Why the agent may not run this tollgate command itself: override grants itself a way past the gate,
 * hook lets it forge the host's own tool events, init/serve/mcp reconfigure or replace the gate.
 */
function operatorDenial(subcommand: string): string {
  const what = subcommand === '' ? 'this tollgate command' : `\`tollgate ${sanitiseText(subcommand, 40)}\``;
  return `Tollgate: this command runs the tollgate CLI itself (${what}), which is for human operators and the host, and is never run on an agent's behalf, whatever launcher runs it (npx, npm exec, pnpm dlx, node .../tollgate.js, a wrapper): override would grant the agent its own way past the gate, hook would forge the host's tool events, and init, serve, mcp and run would reconfigure or bypass the gate. From Bash you may run tollgate predict, decline, check, classify, rules, observe and audit list|show|report|verify. To get past the gate, file a prediction or a decline (tollgate predict|decline), or ask the user.`;
}

const HTTP_ROUTES: Record<BoundSubcommand, { route: string; field: string }> = {
  predict: { route: '/v1/predictions', field: 'prediction' },
  decline: { route: '/v1/declines', field: 'decline' },
  check: { route: '/v1/check', field: 'envelope' },
  observe: { route: '/v1/observations', field: 'output' },
};

function httpTicketDenial(subcommand: BoundSubcommand, session: string): string {
  const { route, field } = HTTP_ROUTES[subcommand];
  return `Tollgate: this gate runs as an HTTP service, so \`tollgate ${subcommand}\` from Bash is not bound to your session here (nothing was run or recorded). File it with POST ${route} and your own bearer token instead: {"call": {"tool": "shell", "args": {"command": "<the exact command>"}, "session": ${JSON.stringify(sanitiseText(session, 256))}}, "${field}": {...}} (for an MCP tool: "tool": "<bare tool name>", "action": "mcp__<server>__<tool>", "args": <its exact arguments>). Then retry the call unchanged.`;
}

/** Directories of the installed tollgate (for [node, /abs/packages/cli/bin/tollgate.js]: /abs/packages/cli). */
export function selfRoots(self: readonly string[]): string[] {
  const script = self.find((w) => /^\/.+\.[cm]?js$/.test(w));
  if (!script) return [];
  const parts = script.split('/');
  return parts.length > 3 ? [parts.slice(0, -2).join('/')] : [];
}

function rejectionText(v: Verdict, input: HookInput): string {
  if (v.rails) return MCP_NAME.test(input.tool_name) ? mcpRails(v.rails.text, input) : v.rails.text;
  const reasons = v.reasons.map((r) => `[${r.code}] ${sanitiseText(r.message, 600)}`).join('\n');
  return `Tollgate (an automated gate you can satisfy) held this call:\n${reasons}`;
}

const MAX_ARGS_TEXT = 2000;

/**
 * An MCP tool called through Claude Code cannot carry a prediction (the host drops unknown
 * arguments), so the agent files it from Bash with --tool/--args, bound to the digest this hook
 * computes. The rails' Bash lines speak of commands; here they name the tool call instead.
 */
function mcpRails(text: string, input: HookInput): string {
  // The args as escaped JSON parse to the very same arguments (the digest still binds) but show no
  // invisible or line-breaking character; the name is one sanitised line (a name that needs
  // sanitising binds nothing, so the call stays refused).
  const argsJson = escapedJson(input.tool_input);
  const args = argsJson.length <= MAX_ARGS_TEXT ? shellWord(argsJson) : "'<the same arguments, as JSON>'";
  const name = sanitiseText(input.tool_name, 256);
  const target = `--tool ${shellWord(name)} --args ${args}`;
  const file = `Then file a prediction through Bash (this MCP tool cannot carry one): tollgate predict ${target} --json-doc '<prediction JSON>'   (or tollgate decline ${target} --json-doc '<decline JSON>')`;
  const retry = `Then call ${name} again with exactly the same arguments.`;
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('Then file a prediction through Bash'));
  if (at < 0) return `${text}\n${file}\n${retry}`;
  lines[at] = file;
  const again = lines.findIndex((l) => l.startsWith('Then retry the exact same command'));
  if (again >= 0) lines[again] = retry;
  const server = sanitiseText(MCP_NAME.exec(input.tool_name)?.[1] ?? '', 128);
  const reads = lines.findIndex((l) => l.startsWith('Run each read above as its own Bash command'));
  if (reads >= 0)
    lines[reads] =
      `Make each read above (a tool name is mcp__${server}__<tool>; a command runs in Bash); the gate records its output.`;
  return lines.join('\n');
}

function passOrBind(v: Verdict, input: HookInput, deps: HookDeps): HookOutput {
  const command = input.tool_name === 'Bash' ? input.tool_input.command : undefined;
  if (typeof command !== 'string') return noObjection();
  const ticket = tollgateIn(command, input, deps);
  if (ticket.kind === 'none' || ticket.kind === 'agent') return noObjection();
  if (ticket.kind === 'operator') return deny(operatorDenial(ticket.subcommand));
  if (ticket.kind === 'refused') {
    return deny(
      `Tollgate could not bind this ${'`tollgate`'} command to your session: ${ticket.problem}. Then run it again.`,
    );
  }
  if (deps.ticketsOverHttp) return deny(httpTicketDenial(ticket.subcommand, deps.ticketsOverHttp.session));
  const rewritten = boundTicketCommand(ticket, input.session_id, deps.self, deps.storeEnv);
  return allowRewritten(
    { ...input.tool_input, command: rewritten },
    `Tollgate bound this ${ticket.subcommand} to the Claude Code session (audit ${v.audit_id ?? '?'}).`,
  );
}

async function postToolUse(input: HookInput, deps: HookDeps): Promise<HookOutput> {
  const event = input.hook_event_name;
  const call = callFor(input);
  if ('problem' in call) return postContext(event);
  const classification = deps.gate.classify(call, undefined, input.cwd);
  if (isGated(classification.class)) {
    await recordResult(input, call, deps);
    return recordDispatch(input, call, deps);
  }
  if (event === 'PostToolUseFailure') return postContext(event);
  if (!isReadTool(input.tool_name)) {
    await recordResult(input, call, deps);
    return postContext(event);
  }
  // The agent's own tollgate commands (also the rewritten predict/decline line) are not evidence sources.
  if (input.tool_name === 'Bash' && tollgateIn(String(call.args.command), input, deps).kind !== 'none')
    return postContext(event);
  const source = call.tool === 'shell' ? String(call.args.command) : { tool: call.tool, args: call.args };
  const observation = await deps.gate.recordObservation({
    session: input.session_id,
    agent: AGENT,
    source,
    output: responseText(input.tool_response),
    recordedBy: RECORDED_BY,
    attested: (deps.attested ?? true) && (await pairedWithPre(input, call, deps)),
  });
  const cite = typeof source === 'string' ? `{"source": ${JSON.stringify(sanitiseText(source, 300))}}` : '';
  return postContext(
    event,
    `Tollgate recorded this read as observation ${observation.id}. To cite it as evidence use {"observation": "${observation.id}", "quote": "<text from this output>"}${cite ? ` or ${cite.slice(0, -1)}, "quote": "…"}` : ''}.`,
  );
}

/**
 * What a call that is not a read returned, recorded against it (kind `result`): preconditions read a
 * diagnostic's verdict from it; it is never evidence for a prediction. Attested only when paired.
 */
async function recordResult(input: HookInput, call: Call, deps: HookDeps): Promise<void> {
  if (input.hook_event_name !== 'PostToolUse') return;
  await deps.gate.recordObservation({
    session: input.session_id,
    agent: AGENT,
    source: call.tool === 'shell' ? String(call.args.command) : { tool: call.tool, args: call.args },
    output: responseText(input.tool_response),
    recordedBy: RECORDED_BY,
    attested: (deps.attested ?? true) && (await pairedWithPre(input, call, deps)),
    kind: 'result',
  });
}

/**
 * Whether this PostToolUse is the host's own report of a call whose PreToolUse the gate decided: a
 * decision row of this session for the same call carries the same tool_use_id and let it run. A
 * PostToolUse made up by anything else (the agent piping JSON into a hook process) pairs with
 * nothing, so its "read" is recorded but never attested.
 */
async function pairedWithPre(input: HookInput, call: Call, deps: HookDeps): Promise<boolean> {
  if (!input.tool_use_id) return false;
  const rows = await deps.store.recentDecisions(input.session_id, callDigest(call), 8);
  return rows.some(
    (r) => r.host_ref === input.tool_use_id && (r.outcome === 'pass' || r.outcome === 'dispatch'),
  );
}

async function recordDispatch(input: HookInput, call: Call, deps: HookDeps): Promise<HookOutput> {
  const event = input.hook_event_name;
  const row = await openDispatch(deps.store, input.session_id, callDigest(call));
  if (!row) return postContext(event);
  const failed = event === 'PostToolUseFailure';
  const probe = deps.probe;
  const { claims } = await deps.gate.settle(row.id, input.session_id, {
    status: failed ? 'error' : 'ok',
    summary: sanitiseText(failed ? responseText(input.error) : responseText(input.tool_response), 200),
    agent: AGENT,
    ...(probe ? { observe: (subject) => probe(subject, input.cwd ?? deps.cwd) } : {}),
  });
  return postContext(event, `Tollgate recorded the outcome of ${row.id}: ${claimLine(claims)}.`);
}

function claimLine(claims: readonly ClaimResult[]): string {
  if (claims.length === 0) return 'no claims to check';
  const count = (r: ClaimResult['result']) => claims.filter((c) => c.result === r).length;
  return `claims matched ${count('matched')}, mismatched ${count('mismatched')}, unverifiable ${count('unverifiable')}`;
}
