import { describe, expect, it } from 'vitest';
import type { ReviewRecord } from './ports.js';
import { backoffMs, noticeBody, reviewNotice, slackBody, targetName } from './review-notify.js';

const record = (command: string, patch: Partial<ReviewRecord> = {}): ReviewRecord => ({
  id: '01JREVIEW0000000000000000A',
  session: 's1',
  agent: 'claude-code',
  call_digest: 'd',
  rule: 'release.publish',
  call: { tool: 'shell', args: { command } },
  rails: [{ code: 'review_required', message: `needs a person: ${command}` }],
  approvers: ['operator'],
  status: 'pending',
  created_at: Date.parse('2026-11-22T12:00:00Z'),
  expires_at: Date.parse('2026-11-23T12:00:00Z'),
  ...patch,
});

describe('review notices', () => {
  it('the JSON body names the request, the call, why, until when, how to approve, and the link', () => {
    const body = reviewNotice(record('release-tool publish v1'), 'https://gate.example/dash/');
    expect(body).toEqual({
      schema: 'tollgate.review-request/v1',
      id: '01JREVIEW0000000000000000A',
      rule: 'release.publish',
      call: { tool: 'shell', summary: 'release-tool publish v1' },
      session: 's1',
      agent: 'claude-code',
      reasons: [{ code: 'review_required', message: 'needs a person: release-tool publish v1' }],
      created_at: '2026-11-22T12:00:00.000Z',
      expires_at: '2026-11-23T12:00:00.000Z',
      approve: 'tollgate review approve 01JREVIEW0000000000000000A --reason …',
      link: 'https://gate.example/dash/#review-01JREVIEW0000000000000000A',
    });
    expect(reviewNotice(record('x')).link).toBeUndefined();
  });

  it('agent text is sanitised: no control characters or escape sequences, length capped', () => {
    const body = reviewNotice(record(`rm -rf /\u001b[2J\u0007 ${'a'.repeat(5000)}`));
    expect(body.call.summary).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(body.call.summary.length).toBeLessThanOrEqual(310);
  });

  it('the Slack body cannot mention, link or break out of its code span with text the agent chose', () => {
    const evil = 'release-tool publish ` <!channel> <https://evil.example|approve here> &amp; *bold*';
    const slack = slackBody(reviewNotice(record(evil, { session: '<!here>' })));
    const all = JSON.stringify(slack);
    expect(all).not.toContain('<!channel>');
    expect(all).not.toContain('<!here>');
    expect(all).not.toContain('<https://evil.example');
    expect(slack.text).toContain('&lt;!channel&gt;');
    // One code span around the command: the agent's backtick does not close it.
    expect(slack.text.split('`')).toHaveLength(3);
    expect(noticeBody(record('x'), 'slack')).toHaveProperty('blocks');
    expect(noticeBody(record('x'), 'json')).toHaveProperty('schema', 'tollgate.review-request/v1');
  });

  it('back-off doubles from 1 s and stops at 60 s; webhooks are named without their URL', () => {
    expect([1, 2, 3, 4, 7, 20].map(backoffMs)).toEqual([1000, 2000, 4000, 8000, 60_000, 60_000]);
    expect(targetName(0, 'https://hooks.example.com/services/T0/B0/SECRET')).toBe(
      'webhook-1@hooks.example.com',
    );
    expect(targetName(2, 'https://x.example/a', 'ops')).toBe('ops');
  });
});
