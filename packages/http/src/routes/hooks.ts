// POST /v1/hooks/claude-code and /v1/hooks/{codex,gemini,cursor,copilot}: each host's hook through
// the same translation as `tollgate hook <host>`. A host that posts (Claude Code's `http` hook) or a
// curl in a command hook blocks only with a 2xx JSON decision (a non-2xx status lets the tool run),
// so every refusal here — no token, bad body, foreign session — is a 200 deny in the host's shape.
import {
  checkHookInput,
  HOST_NAMES,
  HOSTS,
  type HookDeps,
  type HostAdapter,
  refuseHostInput,
  refuseInput,
  runClaudeCodeHook,
  runHostHook,
} from '@tollgate/hooks';
import type { Hono } from 'hono';
import type { Principal } from '../auth.js';
import { readJson } from '../body.js';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { scopedGate } from '../scoped-gate.js';
import { scopeSession } from '../sessions.js';

export type HookOptions = Partial<Pick<HookDeps, 'self' | 'storeEnv' | 'cwd' | 'probe'>>;

export function hookRoutes(app: Hono<AppEnv>, deps: Deps): void {
  app.post('/v1/hooks/claude-code', async (c) => {
    const principal = deps.tokens.authenticate(c.req.header('authorization'));
    if (!principal)
      return c.json(
        refuseInput('the hook sent no valid bearer token (set headers.Authorization in the hook)'),
      );
    c.set('principal', principal);
    const body = await readJson(c, deps.maxBodyBytes);
    if (!body.ok) {
      const problem = (await body.response.json()) as { detail?: string };
      return c.json(refuseInput(`the hook body was refused: ${problem.detail ?? 'unreadable'}`));
    }
    const parsed = checkHookInput(body.value);
    if (!parsed.ok) return c.json(refuseInput(parsed.problem, parsed.event));
    const scoped = scopeSession(principal, parsed.input.session_id);
    if (!scoped.ok) return c.json(refuseInput(scoped.detail, parsed.input.hook_event_name));
    const input = { ...parsed.input, session_id: scoped.session };
    const hook = hookDeps(deps, principal, parsed.input.session_id);
    const output = await runClaudeCodeHook({ ok: true, input }, async () => ({
      deps: hook,
      close: async () => {},
    }));
    return c.json(output);
  });
  for (const host of HOST_NAMES) hostRoute(app, deps, HOSTS[host]);
}

/**
 * POST /v1/hooks/<host>: the host's event in, its answer out (always 200). Codex's exit-2 channel has
 * no HTTP form; its JSON deny is the answer, and a curl wrapper turns it into exit 2 (README).
 */
function hostRoute(app: Hono<AppEnv>, deps: Deps, adapter: HostAdapter): void {
  app.post(`/v1/hooks/${adapter.name}`, async (c) => {
    const principal = deps.tokens.authenticate(c.req.header('authorization'));
    if (!principal)
      return c.json(
        refuseHostInput(
          adapter,
          'the hook sent no valid bearer token (send Authorization: Bearer <token>)',
          undefined,
        ).json,
      );
    c.set('principal', principal);
    const body = await readJson(c, deps.maxBodyBytes);
    if (!body.ok) {
      const problem = (await body.response.json()) as { detail?: string };
      return c.json(
        refuseHostInput(adapter, `the hook body was refused: ${problem.detail ?? 'unreadable'}`, undefined)
          .json,
      );
    }
    const parsed = adapter.parse(body.value);
    if (!parsed.ok) return c.json(refuseHostInput(adapter, parsed.problem, parsed.event).json);
    const scoped = scopeSession(principal, parsed.input.session_id);
    if (!scoped.ok) return c.json(refuseHostInput(adapter, scoped.detail, parsed.event).json);
    const input = { ...parsed.input, session_id: scoped.session };
    const hook = hookDeps(deps, principal, parsed.input.session_id);
    const answer = await runHostHook(adapter, { ...parsed, input }, async () => ({
      deps: hook,
      close: async () => {},
    }));
    return c.json(answer.json);
  });
}

function hookDeps(deps: Deps, principal: Principal, session: string): HookDeps {
  return {
    gate: scopedGate(deps.gate, principal.agent),
    store: deps.store,
    self: deps.hook.self ?? ['tollgate'],
    storeEnv: deps.hook.storeEnv ?? {},
    cwd: deps.hook.cwd ?? process.cwd(),
    // Only a hook credential's tool results count as attested: any other caller (an agent token,
    // open mode) could post a made-up tool_response.
    attested: principal.hook === true,
    // No Bash predict rewrite over HTTP: the agent files with POST /v1/predictions under its session.
    ticketsOverHttp: { session },
    ...(deps.hook.probe !== undefined ? { probe: deps.hook.probe } : {}),
  };
}
