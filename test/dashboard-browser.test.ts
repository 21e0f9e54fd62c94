// The dashboard in a real browser (playwright-core driving Debian's chromium; apt-get install
// chromium) against a running server: the figures shown are the report JSON's, mismatches side by
// side, rules, flags, the chain; a row opens the whole decision from the keyboard with its evidence;
// audit fields render as text; nothing is fetched from elsewhere; with tokens the page asks for one;
// the review queue lists pending requests first and a click (with a reason) approves one.
// Saves a screenshot (SCREENSHOT).
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveTestApp, type TestServer } from '../packages/http/src/testing/serve-test-app.js';
import { deployCall, statusRead, TOOLS_POLICY } from './support/gate.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const SCREENSHOT = join(tmpdir(), 'tollgate-dashboard.png');
export const QUEUE_SCREENSHOT = join(tmpdir(), 'tollgate-review-queue.png');
const OPS = 'ops-token-0123456789abcdef000';
const BOT = 'bot-token-0123456789abcdef000';
const REVIEW_POLICY = join(import.meta.dirname, 'fixtures/review.policy.yaml');

describe.skipIf(!existsSync(CHROMIUM))(
  'dashboard (skipped without chromium: apt-get install chromium)',
  () => {
    let browser: Browser;
    let s: TestServer;
    let mismatchId = '';
    let skippedId = '';
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
      s = await serveTestApp();
      const prediction = {
        claims: [{ subject: statusRead, op: 'contains', value: 'build 42', confidence: 0.9 }],
        evidence: [{ source: statusRead, quote: 'build 41' }],
      };
      // dash: refused, then predicted and dispatched; the prediction held.
      await s.call('POST', '/v1/check', { call: deployCall('dash') });
      await s.call('POST', '/v1/observations', {
        session: 'dash',
        source: statusRead,
        output: 'api: build 41',
      });
      const go = await s.call('POST', '/v1/check', { call: deployCall('dash'), envelope: { prediction } });
      await s.call('POST', `/v1/calls/${go.body.audit_id}/outcome`, {
        status: 'ok',
        observed: [{ subject: statusRead, output: 'api: running build 42' }],
      });
      // miss: the same, but the gate observed something else afterwards.
      s.clock.advance(60);
      await s.call('POST', '/v1/check', { call: deployCall('miss') });
      await s.call('POST', '/v1/observations', {
        session: 'miss',
        source: statusRead,
        output: 'api: build 41',
      });
      const miss = await s.call('POST', '/v1/check', { call: deployCall('miss'), envelope: { prediction } });
      mismatchId = miss.body.audit_id;
      await s.call('POST', `/v1/calls/${mismatchId}/outcome`, {
        status: 'ok',
        observed: [{ subject: statusRead, output: 'api: running build 41 <script>alert(1)</script>' }],
      });
      // decl: a decline that names no read it tried (the rule wants one: refused, counted as such).
      await s.call('POST', '/v1/check', {
        call: deployCall('decl'),
        envelope: {
          decline: {
            irreducible: 'cannot see the queue',
            would_change_my_mind: ['queue empty'],
            attempted_observations: [],
          },
        },
      });
      // skip: a decline that cites a read it made, but not the one the rule suggests (declined while queryable).
      const other = await s.call('POST', '/v1/observations', {
        session: 'skip',
        source: { tool: 'release_status', args: { service: 'web' } },
        output: 'web: build 7',
      });
      const skipped = await s.call('POST', '/v1/check', {
        call: deployCall('skip'),
        envelope: {
          decline: {
            irreducible: 'cannot see the queue',
            would_change_my_mind: ['queue empty'],
            attempted_observations: [{ observation: other.body.id }],
          },
        },
      });
      expect(skipped.body.outcome).toBe('declined');
      skippedId = skipped.body.audit_id;
      await s.call('POST', '/v1/check', {
        call: { tool: '<img src=x onerror="document.title=1">', args: {}, session: 'dash' },
      });
      await s.gate.flush();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await s?.close();
    });

    test('shows the figures of the report JSON, the mismatches, the rules, the flags and the chain', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('request', (r) => {
        if (!r.url().startsWith(s.url)) errors.push(`fetched outside the server: ${r.url()}`);
      });
      await page.goto(`${s.url}/`);
      await page.waitForSelector('body[data-loaded="true"]', { timeout: 10_000 });
      expect(await page.textContent('#chain')).toMatch(/^chain verified: \d+ rows$/);
      expect(await page.title()).toBe('Tollgate');

      // The same query the page made, asked of the API: every figure shown is the JSON's.
      const query = await page.getAttribute('body', 'data-query');
      const report = (await s.call('GET', `/v1/report?${query}`)).body;
      const figure = (name: string) => page.textContent(`[data-figure="${name}"] .value`);
      const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
      expect(await figure('decisions')).toBe(String(report.totals.decisions));
      expect(await figure('declined')).toBe(String(report.totals.by_outcome.declined));
      expect(await figure('decline rate')).toBe(pct(report.totals.rates.decline));
      expect(await figure('accuracy')).toBe(pct(report.totals.accuracy));
      expect(await figure('Brier score')).toBe(String(report.totals.brier.score));
      expect(report.totals.claims).toEqual({ matched: 1, mismatched: 1, unverifiable: 0 });

      const agents = await page.$$eval('#agent-rows tr', (rows) =>
        rows.map((r) => r.querySelectorAll('td')[1]?.textContent),
      );
      expect(agents).toEqual(
        Object.values(report.by_agent).map((g) => String((g as { decisions: number }).decisions)),
      );
      const bars = await page.$$eval('#series g.bar', (gs) =>
        gs.map((g) => [g.getAttribute('data-day'), g.getAttribute('data-decisions')]),
      );
      expect(bars).toEqual(
        report.series.map((d: { key: string; decisions: number }) => [d.key, String(d.decisions)]),
      );
      const rules = await page.$$eval('#rule-rows tr', (rows) =>
        rows.map((r) => [...r.querySelectorAll('td')].slice(0, 4).map((c) => c.textContent)),
      );
      expect(rules).toEqual(
        report.rules.map((x: { rule: string; fires: number; last_fired: string; refusals: number }) => [
          x.rule,
          String(x.fires),
          x.last_fired.replace('T', ' ').slice(0, 19),
          String(x.refusals),
        ]),
      );
      expect(await page.textContent('#never-fired')).toContain('db.drop');
      const mismatches = await page.$$eval('#mismatch-rows tr', (rows) =>
        rows.map((r) => [
          r.getAttribute('data-id'),
          r.querySelector('.predicted')?.textContent,
          r.querySelector('.observed')?.textContent,
        ]),
      );
      expect(mismatches).toEqual([
        [mismatchId, 'build 42', 'api: running build 41 <script>alert(1)</script>'],
      ]);
      expect(await page.textContent('[data-flag="declined_while_queryable"] h3')).toBe(
        `declined while queryable: ${report.flags.declined_while_queryable.count}`,
      );
      const tools = await page.$$eval('#decision-rows tr td:nth-child(4)', (cells) =>
        cells.map((c) => c.textContent),
      );
      expect(tools[0]).toBe('<img src=x onerror="document.title=1">');
      expect(await page.title()).toBe('Tollgate');

      // Keyboard: the mismatch row opens the whole decision with Enter; Escape closes it.
      await page.focus(`#mismatch-rows tr[data-id="${mismatchId}"]`);
      await page.keyboard.press('Enter');
      await page.waitForSelector('#detail[data-loaded="true"]');
      const view = (await s.call('GET', `/v1/audit/${mismatchId}`)).body;
      const evidence = await page.$$eval('#detail-evidence tr.evidence', (rows) =>
        rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent)),
      );
      expect(evidence).toEqual(
        view.evidence.map((e: { observation: string; age_s: number }) => [
          e.observation,
          JSON.stringify({ tool: 'release_status', args: { service: 'api' } }),
          `${e.age_s} s`,
        ]),
      );
      expect(evidence.length).toBeGreaterThan(0);
      const detail = await page.textContent('#detail-body');
      expect(detail).toContain('mismatched');
      expect(detail).toContain('chain');
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      await page.keyboard.press('Escape');
      expect(await page.isHidden('#detail')).toBe(true);

      // The decline that skipped the suggested read shows what was suggested and that it was not made.
      await page.focus(`#decision-rows tr[data-id="${skippedId}"]`);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`#detail[data-id="${skippedId}"][data-loaded="true"]`);
      const suggested = await page.$$eval('#detail-suggested tr', (rows) =>
        rows.slice(1).map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent)),
      );
      expect(suggested).toEqual([
        [JSON.stringify({ tool: 'release_status', args: { service: 'api' } }), 'no'],
      ]);
      await page.keyboard.press('Escape');

      // A filter narrows every view: one agent-less rule view, same figures as the API's.
      await page.selectOption('#f-window', 'all');
      await page.waitForSelector('body[data-loaded="true"]');
      const all = (await s.call('GET', `/v1/report?${await page.getAttribute('body', 'data-query')}`)).body;
      expect(await figure('decisions')).toBe(String(all.totals.decisions));
      expect(errors).toEqual([]);
    });

    test('with tokens the page asks for one and then loads', async () => {
      const t = await serveTestApp({ tokens: [{ token: OPS, agent: 'ops', operator: true }] });
      try {
        await t.call('POST', '/v1/check', { call: deployCall('x') }, { authorization: `Bearer ${OPS}` });
        const page = await browser.newPage();
        await page.goto(`${t.url}/`);
        await page.waitForSelector('#login:not([hidden])');
        await page.fill('#token', OPS);
        await page.click('#login button');
        await page.waitForSelector('body[data-loaded="true"]');
        expect(await page.$$eval('#decision-rows tr', (rows) => rows.length)).toBe(1);
      } finally {
        await t.close();
      }
    });

    test('the review queue: pending first; a click with a reason approves one, and the queue updates', async () => {
      const t = await serveTestApp({
        policies: [TOOLS_POLICY, REVIEW_POLICY],
        tokens: [
          { token: OPS, agent: 'ops', operator: true },
          { token: BOT, agent: 'bot' },
        ],
      });
      const bot = { authorization: `Bearer ${BOT}` };
      const ops = { authorization: `Bearer ${OPS}` };
      const rotate = (session: string) => ({
        call: { tool: 'rotate_keys', args: { env: 'production', note: '<b>x</b>' }, session },
      });
      try {
        // One request answered already (denied), then two waiting, the older one first.
        const denied = (await t.call('POST', '/v1/check', rotate('r0'), bot)).body.review_id;
        await t.call('POST', `/v1/reviews/${denied}/deny`, { reason: 'freeze' }, ops);
        t.clock.advance(60);
        const first = (await t.call('POST', '/v1/check', rotate('r1'), bot)).body.review_id;
        t.clock.advance(60);
        const second = (await t.call('POST', '/v1/check', rotate('r2'), bot)).body.review_id;
        // How the second one was announced: the outbox's record of two webhooks (review-notify).
        const at = t.clock.now();
        await t.store.enqueueNotifications(second, ['ops-slack', 'pager'], at);
        await t.store.recordNotification({ review_id: second, target: 'ops-slack', at, delivered: true });
        await t.store.recordNotification({
          review_id: second,
          target: 'pager',
          at,
          delivered: false,
          error: 'HTTP 500 <i>down</i>',
          next_at: at + 30_000,
        });
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        // Opened from a notice's link: the page shows that request, its reason field focused.
        await page.goto(`${t.url}/#review/${second}`);
        await page.waitForSelector('#login:not([hidden])');
        await page.fill('#token', OPS);
        await page.click('#login button');
        await page.waitForSelector('body[data-loaded="true"]');
        expect(await page.getAttribute('#review-rows tr.linked', 'data-review')).toBe(second);
        expect(await page.$eval(':focus', (e) => e.closest('tr')?.getAttribute('data-review'))).toBe(second);
        const queue = () =>
          page.$$eval('#review-rows tr', (rows) =>
            rows.map((r) => [r.getAttribute('data-review'), r.getAttribute('data-state')]),
          );
        expect(await queue()).toEqual([
          [first, 'pending'],
          [second, 'pending'],
          [denied, 'denied'],
        ]);
        expect(await page.textContent('#review-meta')).toBe('2 waiting for a person');
        const cells = await page.$$eval(`#review-rows tr[data-review="${first}"] td`, (tds) =>
          tds.slice(0, 8).map((c) => c.textContent),
        );
        expect(cells.slice(0, 5)).toEqual([
          'pending',
          'rotate_keys {"env":"production","note":"<b>x</b>"}',
          'keys.rotate.review',
          'bot/r1',
          'bot',
        ]);
        expect(cells[5]).toMatch(/^\d+ (s|min|h|d)$/);
        const view = (await t.call('GET', `/v1/reviews/${first}`, undefined, ops)).body;
        expect(cells[6]).toBe(view.expires_at.replace('T', ' ').slice(0, 19));
        expect(cells[7]).toBe('—');
        const notified = await page.textContent(`#review-rows tr[data-review="${second}"] td:nth-child(8)`);
        expect(notified).toBe('ops-slack: delivered; pager: 1 attempt, last error HTTP 500 <i>down</i>');
        // The agent polling its own request never sees how a person was notified (nor a webhook's error).
        const polled = (await t.call('GET', `/v1/reviews/${second}`, undefined, bot)).body;
        expect(polled.state).toBe('pending');
        expect(polled).not.toHaveProperty('notifications');
        expect(
          (await t.call('GET', `/v1/reviews/${second}`, undefined, ops)).body.notifications,
        ).toHaveLength(2);

        // No reason, no answer: the page says so and sends nothing.
        const row = `#review-rows tr[data-review="${first}"]`;
        await page.click(`${row} button[data-answer="approve"]`);
        expect(await page.textContent(`${row} .status`)).toBe('a reason is required');
        expect((await t.call('GET', `/v1/reviews/${first}`, undefined, ops)).body.state).toBe('pending');

        await page.fill(`${row} input.reason`, 'rotation window open');
        await page.click(`${row} button[data-answer="approve"]`);
        await page.waitForSelector(`#review-rows tr[data-review="${first}"][data-state="approved"]`);
        expect(await queue()).toEqual([
          [second, 'pending'],
          [first, 'approved'],
          [denied, 'denied'],
        ]);
        expect(await page.textContent('#review-meta')).toBe('1 waiting for a person');
        await page.screenshot({ path: QUEUE_SCREENSHOT, clip: { x: 0, y: 0, width: 1400, height: 300 } });
        expect(await page.textContent(`${row} td.answer`)).toBe('approved by ops: rotation window open');
        const answered = (await t.call('GET', `/v1/reviews/${first}`, undefined, ops)).body;
        expect(answered).toMatchObject({
          state: 'approved',
          answered_by: 'ops',
          answer_reason: 'rotation window open',
        });
        const rows = await t.store.listAudit({ kind: 'review' });
        expect(rows.map((r) => r.review?.id)).toEqual([denied, first]);
        // The approved call now passes once.
        expect((await t.call('POST', '/v1/check', rotate('r1'), bot)).body.outcome).toBe('dispatch');
        expect(errors).toEqual([]);
      } finally {
        await t.close();
      }
    });
  },
);
