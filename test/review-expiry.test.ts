// Waiting never approves (issue 13), on an injected clock, through the Claude Code hook translation:
// a request expires into a refusal after 24 h (or the rule's shorter timeout_s), the agent is told so
// on its next attempt, and a new request is filed; nothing expired or denied is ever asked about or
// let through. And review notices on the same clock: a failing webhook (a real local server answering
// 500) is retried only when its back-off has passed, then given up, the request still pending.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { answerReview, drainNotifications, type NotifyTarget, REVIEW_TIMEOUT_S } from '@tollgate/core';
import { claudeCodeHook, type HookDeps, type HookInput } from '@tollgate/hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../packages/cli/src/notify.js';
import { openTestGate, type TestGate, tempDir } from './support/gate.js';

const POLICY = `schema: tollgate.policy/v1
rules:
  - id: deploy.review
    description: a production deploy needs a person
    tool: deploy
    class: irreversible
    severity: high
    review: required
  - id: wipe.review
    description: a wipe needs a person within ten minutes
    tool: wipe
    class: irreversible
    severity: critical
    review: { timeout_s: 600 }
`;
const ID = /review ([0-9A-HJKMNP-TV-Z]{26})/;
const FILED = /filed review ([0-9A-HJKMNP-TV-Z]{26})/;

let t: TestGate;
afterEach(async () => {
  await t?.close();
});

async function open(): Promise<TestGate> {
  const file = join(tempDir(), 'review.policy.yaml');
  writeFileSync(file, POLICY);
  t = await openTestGate({ policies: [file] });
  return t;
}

let uses = 0;
const pre = (tool: string, session = 's1'): HookInput => ({
  hook_event_name: 'PreToolUse',
  session_id: session,
  tool_name: tool,
  tool_input: { env: 'production' },
  tool_use_id: `toolu_${++uses}`,
  permission_mode: 'default',
});

function deps(person: boolean): HookDeps {
  return {
    gate: t.gate,
    store: t.store,
    self: ['tollgate'],
    storeEnv: {},
    cwd: t.dir,
    clock: t.clock,
    personAtHost: () => person,
  };
}

const answerOf = async (input: HookInput, person = false) => {
  const out = await claudeCodeHook(input, deps(person));
  return {
    decision: out.hookSpecificOutput.permissionDecision,
    reason: out.hookSpecificOutput.permissionDecisionReason ?? '',
  };
};

describe('expiry on an injected clock, through the hook', () => {
  it('pending until 24 h, then refused as expired on the next attempt, with a new request; never a pass', async () => {
    const { clock, store } = await open();
    const first = await answerOf(pre('deploy'));
    expect(first.decision).toBe('deny');
    const id = FILED.exec(first.reason)?.[1] as string;
    expect(id).toBeDefined();
    clock.advance(REVIEW_TIMEOUT_S - 1);
    const waiting = await answerOf(pre('deploy'));
    expect(waiting.reason).toContain(`review ${id} [deploy.review] is pending`);
    clock.advance(1);
    const late = await answerOf(pre('deploy'));
    expect(late.decision).toBe('deny');
    expect(late.reason).toContain(`review ${id} expired unanswered`);
    const fresh = FILED.exec(late.reason)?.[1];
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(id);
    // An answer after expiry is refused; the expired request never turns into an approval.
    expect(
      await answerReview(store, clock, { id, answer: 'approved', person: 'ops', reason: 'late' }),
    ).toMatchObject({
      ok: false,
      code: 'not_pending',
    });
    for (let i = 0; i < 3; i++) {
      clock.advance(REVIEW_TIMEOUT_S);
      expect((await answerOf(pre('deploy'))).decision).toBe('deny');
    }
    expect((await store.getReview(id))?.status).toBe('pending');
  });

  it("the rule's shorter timeout_s: expired after 600 s; with a person at the terminal only the new request is asked about", async () => {
    const { clock } = await open();
    const asked = await answerOf(pre('wipe'), true);
    expect(asked.decision).toBe('ask');
    const id = ID.exec(asked.reason)?.[1] as string;
    expect(asked.reason).toContain('stays pending until 2026-11-22T12:10:00.000Z');
    clock.advance(600);
    const again = await answerOf(pre('wipe'), true);
    // The expired request is not asked about: the next attempt files (and asks about) a new one.
    expect(again.decision).toBe('ask');
    expect(ID.exec(again.reason)?.[1]).not.toBe(id);
    // Headless, the agent is told the old one expired.
    clock.advance(600);
    const headless = await answerOf(pre('wipe'));
    expect(headless.decision).toBe('deny');
    expect(headless.reason).toContain('expired unanswered');
  });

  it('an approval lapses unused after an hour: refused again, never auto-approved', async () => {
    const { clock, store } = await open();
    const id = FILED.exec((await answerOf(pre('deploy'))).reason)?.[1] as string;
    expect(
      (await answerReview(store, clock, { id, answer: 'approved', person: 'ops', reason: 'ok' })).ok,
    ).toBe(true);
    clock.advance(3600);
    const after = await answerOf(pre('deploy'));
    expect(after.decision).toBe('deny');
    expect(after.reason).toContain('review_required');
  });
});

describe('the host approval, in-process', () => {
  it('a PostToolUseFailure of the asked call records the approval too (the call ran, and failed), used up', async () => {
    const { store } = await open();
    const input = pre('deploy');
    const asked = await claudeCodeHook(input, deps(true));
    expect(asked.hookSpecificOutput.permissionDecision).toBe('ask');
    const id = ID.exec(asked.hookSpecificOutput.permissionDecisionReason ?? '')?.[1] as string;
    const failed = await claudeCodeHook(
      { ...input, hook_event_name: 'PostToolUseFailure', error: 'deploy failed' },
      deps(true),
    );
    expect(failed.hookSpecificOutput.additionalContext).toContain(`review ${id}`);
    expect(await store.getReview(id)).toMatchObject({ status: 'approved', answered_by: 'host:claude-code' });
    expect((await store.getReview(id))?.consumed_at).toBeDefined();
    // Used up: the next attempt is asked about under a new request.
    const again = await claudeCodeHook(pre('deploy'), deps(true));
    expect(ID.exec(again.hookSpecificOutput.permissionDecisionReason ?? '')?.[1]).not.toBe(id);
  });
});

describe('notice retries on an injected clock (a real local server answering 500)', () => {
  let server: Server;
  let hits = 0;
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        hits++;
        res.statusCode = 500;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('retries after 1 s, then 2 s, then gives up; the request stays pending and the call refused', async () => {
    const { clock, store } = await open();
    const target: NotifyTarget = {
      name: 'ops',
      url,
      format: 'json',
      headers: {},
      timeout_ms: 2000,
      retries: 2,
    };
    const id = FILED.exec((await answerOf(pre('deploy'))).reason)?.[1] as string;
    await store.enqueueNotifications(id, ['ops'], clock.now());
    const drain = () => drainNotifications({ store, clock, targets: [target], post: postWebhook });
    expect(await drain()).toEqual({ attempted: 1, delivered: 0, failed: 1 });
    expect(await drain()).toEqual({ attempted: 0, delivered: 0, failed: 0 });
    clock.advance(0.999);
    expect((await drain()).attempted).toBe(0);
    clock.advance(0.001);
    expect(await drain()).toEqual({ attempted: 1, delivered: 0, failed: 1 });
    clock.advance(1.999);
    expect((await drain()).attempted).toBe(0);
    clock.advance(0.001);
    expect(await drain()).toEqual({ attempted: 1, delivered: 0, failed: 1 });
    clock.advance(3600);
    expect((await drain()).attempted).toBe(0);
    expect(hits).toBe(3);
    const review = await store.getReview(id);
    expect(review?.status).toBe('pending');
    expect(review?.notifications).toEqual([
      {
        review_id: id,
        target: 'ops',
        attempts: 3,
        last_attempt_at: clock.now() - 3600_000,
        last_error: 'HTTP 500',
      },
    ]);
    expect((await answerOf(pre('deploy'))).decision).toBe('deny');
  });

  it('a webhook removed from the config is given up, not retried forever', async () => {
    const { clock, store } = await open();
    const id = FILED.exec((await answerOf(pre('deploy'))).reason)?.[1] as string;
    await store.enqueueNotifications(id, ['gone'], clock.now());
    const result = await drainNotifications({ store, clock, targets: [], post: postWebhook });
    expect(result).toEqual({ attempted: 1, delivered: 0, failed: 1 });
    expect((await store.getReview(id))?.notifications?.[0]).toMatchObject({
      attempts: 1,
      last_error: 'the webhook is no longer configured',
    });
    expect(await store.nextNotificationAt()).toBeUndefined();
  });
});
