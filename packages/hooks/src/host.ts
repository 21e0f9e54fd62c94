// One hook call of any host other than Claude Code, from bytes to the host's answer: decode, let the
// host's adapter turn its event into the canonical one (hosts/*.ts), translate (translate.ts), and
// shape the decision back. Every host here fails open on a missing or unreadable answer, so every
// failure — input that cannot be read, a gate that cannot open or decide — is an explicit deny in the
// host's own shape. A host that cannot rewrite a command gets the agent's `tollgate predict|...`
// filed by the hook itself (ticket-run.ts), bound to the host's session, and a deny saying so.
import { decodeJson, isFault, sanitiseOutgoing, sanitiseText } from '@tollgate/core';
import type { HookDeps } from './deps.js';
import type { HookEvent, HookInput } from './input.js';
import { type HookDecision, type HostInfo, translate } from './translate.js';

/** Hosts the hook speaks besides Claude Code. */
export const HOST_NAMES = ['codex', 'gemini', 'cursor', 'copilot'] as const;
export type HostName = (typeof HOST_NAMES)[number];

/** What the hook process writes: one JSON object on stdout, an exit code, and stderr where the host reads a reason there. */
export interface HostAnswer {
  json: Record<string, unknown>;
  exitCode: 0 | 2;
  stderr?: string;
}

export type HostParse =
  | {
      ok: true;
      input: HookInput;
      event: string;
      /**
       * Another event of this host decides this very call (Cursor's preToolUse for a shell or MCP
       * call that beforeShellExecution / beforeMCPExecution also see): answered with no objection and
       * nothing recorded, so a call is never decided twice (a second decision would use up the
       * prediction the first dispatched, or file a ticket twice).
       */
      elsewhere?: true;
    }
  | { ok: false; problem: string /** The host's event, when it could be read. */; event?: string };

/** A decision as a host shapes it: the ticket binding is already resolved to a deny. */
export type ShapedDecision = Exclude<HookDecision, { kind: 'bind' }>;

export interface HostAdapter {
  name: HostName;
  info: HostInfo;
  /** The host's events this adapter handles, pre-tool events first. */
  events: readonly string[];
  /** Environment variables the host sets to the project directory for its hooks, in order of trust. */
  projectDirEnv: readonly string[];
  /** A decoded document → the canonical event, or what is wrong with it. */
  parse(doc: unknown): HostParse;
  /**
   * The host's answer to `event` (undefined: the event could not be read, so the strictest answer,
   * a pre-tool deny). Text is already sanitised for the model.
   */
  shape(decision: ShapedDecision, event: string | undefined): HostAnswer;
}

export interface HostRuntime {
  deps: HookDeps;
  close(): Promise<void>;
}

/** Claude Code caps injected text at 10,000 characters; the other hosts get no more. */
const MAX_TEXT = 9500;

export function forModel(text: string): string {
  return sanitiseOutgoing(text, MAX_TEXT);
}

export async function runHostHook(
  adapter: HostAdapter,
  body: Uint8Array | string | HostParse,
  open: (input: HookInput) => Promise<HostRuntime>,
): Promise<HostAnswer> {
  let parsed: HostParse;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    let doc: unknown;
    try {
      doc = decodeJson(body);
    } catch (error) {
      if (!isFault(error)) throw error;
      return refuse(adapter, `hook ${error.message}`, undefined);
    }
    parsed = adapter.parse(doc);
  } else parsed = body;
  if (!parsed.ok) return refuse(adapter, parsed.problem, parsed.event);
  const { input, event } = parsed;
  if (parsed.elsewhere)
    return adapter.shape({ kind: input.hook_event_name === 'PreToolUse' ? 'pass' : 'noted' }, event);
  let runtime: HostRuntime | undefined;
  try {
    runtime = await open(input);
    const decision = await translate(input, runtime.deps, adapter.info);
    const shaped =
      decision.kind === 'bind' ? await fileTicket(decision, input, runtime.deps, adapter.info) : decision;
    return adapter.shape(shaped, event);
  } catch (error) {
    return adapter.shape(unavailable(input, error), event);
  } finally {
    await runtime?.close().catch(() => {});
  }
}

/** Input the gate could not read: refused, naming the problem (a post-tool event only notes it). */
export function refuse(adapter: HostAdapter, problem: string, event: string | undefined): HostAnswer {
  const reason = `Tollgate (an automated gate) could not read this hook call, so the tool call is refused: ${sanitiseText(problem, 600)}. Nothing was run. Retry the tool call; if this keeps happening, the hook configuration needs fixing (tollgate init ${adapter.name}).`;
  const known = event !== undefined && adapter.events.includes(event) ? event : undefined;
  return adapter.shape({ kind: 'deny', reason }, known);
}

const PRE_EVENTS: ReadonlySet<HookEvent> = new Set(['PreToolUse']);

function unavailable(input: HookInput, error: unknown): ShapedDecision {
  const message = sanitiseText(error instanceof Error ? error.message : String(error), 300);
  if (PRE_EVENTS.has(input.hook_event_name)) {
    return {
      kind: 'deny',
      reason: `Tollgate (an automated gate) is unavailable and could not decide this call, so it is denied [gate_unavailable]: ${message}. Nothing was run. Retry shortly; if it persists, ask the user to check the tollgate setup.`,
    };
  }
  return {
    kind: 'noted',
    context: `Tollgate could not record this tool result (${message}); it will not count as evidence.`,
  };
}

/**
 * The agent's `tollgate predict|decline|observe|check`, filed by the hook under the host's session
 * and store. The host cannot rewrite the command, so the command itself does not run: the agent reads
 * what the filing printed in the deny reason.
 */
async function fileTicket(
  decision: Extract<HookDecision, { kind: 'bind' }>,
  input: HookInput,
  deps: HookDeps,
  host: HostInfo,
): Promise<ShapedDecision> {
  const sub = decision.ticket.subcommand;
  if (!deps.runTicket)
    return {
      kind: 'deny',
      reason: `Tollgate cannot file \`tollgate ${sub}\` from this hook (nothing was run or recorded); ask the user to check the tollgate setup.`,
    };
  const run = await deps.runTicket(decision.ticket, {
    session: input.session_id,
    cwd: deps.cwd,
    self: deps.self,
    env: deps.storeEnv,
  });
  const output = sanitiseText(run.output.trim(), 4000);
  const status = run.code === 0 ? 'It succeeded' : `It failed (exit ${run.code ?? 'killed'})`;
  const next =
    run.code !== 0
      ? 'Fix what it names and run it again.'
      : sub === 'predict' || sub === 'decline'
        ? 'Now retry the original call, unchanged.'
        : 'Carry on.';
  return {
    kind: 'deny',
    reason: `Tollgate ran your \`tollgate ${sub}\` itself, bound to this ${host.label} session (${host.label} cannot rewrite a command, so your ${host.shellTool} call was answered here instead and did not run again). ${status}:\n${output}\n${next}`,
  };
}
