// What a hook translation needs from its caller (the CLI's hook process, or the HTTP service): the
// gate and store, how this tollgate is run, and where the agent's commands run.
import type { Clock, Gate, Store } from '@tollgate/core';
import type { FileView } from '@tollgate/shell';
import type { HookInput } from './input.js';
import type { Probe } from './probe.js';
import type { SelfIdentity } from './self-identity.js';
import type { TicketRunner } from './ticket-run.js';

export interface HookDeps {
  gate: Gate;
  store: Pick<
    Store,
    | 'listAudit'
    | 'recentDecisions'
    | 'claimHostPost'
    | 'findObservationsBySource'
    | 'getReview'
    | 'answerReview'
  >;
  /**
   * Whether a person is at the host's terminal for this input (host-prompt.ts): then a call waiting
   * for review is put to them in the host's own prompt (Claude Code's `ask`), and the post-tool event
   * showing it ran records their approval (host-review.ts). Absent (the HTTP route, which sees no host
   * environment; hosts without a prompt): never — the deny form.
   */
  personAtHost?: (input: HookInput) => boolean;
  /** Time for recording a host approval (tests inject one); the system clock by default. */
  clock?: Clock;
  /** Re-reads probe-able claim subjects after a dispatched call. */
  probe?: Probe;
  /** How the agent's shell reaches this tollgate (e.g. [node, /abs/bin/tollgate.js]). */
  self: readonly string[];
  /** Variables that point a `tollgate predict` process at the hook's store (TOLLGATE_DB, TOLLGATE_CONFIG). */
  storeEnv: Readonly<Record<string, string>>;
  /** Where probes run when the input names no cwd. */
  cwd: string;
  /**
   * Whether post-tool reads are recorded as attested (the gate saw the read pass). True for the
   * host's own hook process; over HTTP only for a token marked `hook: true`, since any other token
   * holder could post a made-up tool_response. Default true.
   */
  attested?: boolean;
  /**
   * Told of every shell call this hook dispatched (its decision row's id), before the host runs it:
   * the CLI's hook process records which agent host the dispatch is for, so a git hook under that
   * host's shell takes the dispatch as its own and no other process may (cli dispatch-via.ts).
   */
  onDispatch?: (auditId: string) => void;
  /**
   * Set by the HTTP hook route: a shell `tollgate predict|decline` is not bound there (the line
   * would have to carry the store, a database URL with credentials); the agent is pointed to
   * POST /v1/predictions | /v1/declines with its own token, under this session name.
   */
  ticketsOverHttp?: { session: string };
  /**
   * How a host that cannot rewrite a shell command files the agent's `tollgate predict|decline|...`
   * itself, bound to the hook's session and store (the CLI's hook process; never the HTTP service).
   */
  runTicket?: TicketRunner;
  /**
   * How the hook resolves the programs the agent's shell would run (PATH, globs, symlinks) and
   * recognises this tollgate among them, renamed or copied. Without it only the words are read.
   * The same view, home, PATH and environment as the gate's (runtime.where), so that one parse of a
   * command serves both the look for a tollgate invocation and the gate's check (CheckOptions.parsed).
   */
  resolve?: {
    identity: SelfIdentity;
    files: FileView;
    home?: string;
    path?: string;
    env?: Readonly<Record<string, string | undefined>>;
  };
}
