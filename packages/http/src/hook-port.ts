// The Claude Code hook translation the HTTP route delegates to (shared with `tollgate hook claude-code`).
import type { Gate } from '@tollgate/core';

/** Decodes nothing and decides nothing itself: it maps one hook payload to the hook's JSON answer. */
export type HookHandler = (gate: Gate, payload: unknown, scope: HookScope) => Promise<unknown>;

export interface HookScope {
  /** Maps the payload's session_id to the store session this caller may use, or says why not. */
  session(session: string): { ok: true; session: string } | { ok: false; detail: string };
  agent?: string;
}
