// POST /v1/hooks/claude-code: Claude Code's `http` hook type, through the same translation as
// `tollgate hook claude-code`. An http hook blocks only with a 2xx JSON decision (a non-2xx status
// lets the tool run), so every refusal here — no token, bad body, foreign session — is a 200 deny.
import { checkHookInput, type HookDeps, refuseInput, runClaudeCodeHook } from '@tollgate/hooks';
import type { Hono } from 'hono';
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
    const hook: HookDeps = {
      gate: scopedGate(deps.gate, principal.agent),
      store: deps.store,
      self: deps.hook.self ?? ['tollgate'],
      storeEnv: deps.hook.storeEnv ?? {},
      cwd: deps.hook.cwd ?? process.cwd(),
      // Only a hook credential's tool results count as attested: any other caller (an agent token,
      // open mode) could post a made-up tool_response.
      attested: principal.hook === true,
      // No Bash predict rewrite over HTTP: the agent files with POST /v1/predictions under its session.
      ticketsOverHttp: { session: parsed.input.session_id },
      ...(deps.hook.probe !== undefined ? { probe: deps.hook.probe } : {}),
    };
    const output = await runClaudeCodeHook({ ok: true, input }, async () => ({
      deps: hook,
      close: async () => {},
    }));
    return c.json(output);
  });
}
