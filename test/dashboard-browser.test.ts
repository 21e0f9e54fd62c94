// The dashboard in a real browser (playwright-core driving Debian's chromium; apt-get install
// chromium) against a running server: recent decisions, the calibration report and the chain status
// are shown, audit fields render as text, and with tokens the page asks for one. Saves a screenshot.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveTestApp, type TestServer } from '../packages/http/src/testing/serve-test-app.js';
import { deployCall, statusRead } from './support/gate.js';

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
const OPS = 'ops-token-0123456789abcdef000';

describe.skipIf(!existsSync(CHROMIUM))(
  'dashboard (skipped without chromium: apt-get install chromium)',
  () => {
    let browser: Browser;
    let s: TestServer;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
      s = await serveTestApp();
      await s.call('POST', '/v1/check', { call: deployCall('dash') });
      await s.call('POST', '/v1/observations', {
        session: 'dash',
        source: statusRead,
        output: 'api: build 41',
      });
      const prediction = {
        claims: [{ subject: statusRead, op: 'contains', value: 'build 42' }],
        evidence: [{ source: statusRead, quote: 'build 41' }],
      };
      const go = await s.call('POST', '/v1/check', { call: deployCall('dash'), envelope: { prediction } });
      await s.call('POST', `/v1/calls/${go.body.audit_id}/outcome`, {
        status: 'ok',
        observed: [{ subject: statusRead, output: 'api: running build 42' }],
      });
      await s.call('POST', '/v1/check', {
        call: { tool: '<img src=x onerror="document.title=1">', args: {}, session: 'dash' },
      });
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await s?.close();
    });

    test('shows decisions, calibration and the chain', async () => {
      const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(`${s.url}/`);
      await page.waitForSelector('body[data-loaded="true"]', { timeout: 10_000 });
      expect(await page.textContent('#chain')).toMatch(/^chain verified: \d+ rows$/);
      const outcomes = await page.$$eval('#decision-rows tr', (rows) =>
        rows.map((r) => r.getAttribute('data-outcome')),
      );
      expect(outcomes).toEqual(['pass', 'dispatch', 'rejected']);
      const tools = await page.$$eval('#decision-rows tr td:nth-child(4)', (cells) =>
        cells.map((c) => c.textContent),
      );
      expect(tools[0]).toBe('<img src=x onerror="document.title=1">');
      expect(await page.title()).toBe('Tollgate');
      const all = await page.$$eval('#report-rows tr:first-child td', (cells) =>
        cells.map((c) => c.textContent),
      );
      expect(all).toEqual(['all', '3', '1', '1', '0', '1', '0.0%', '1', '0', '0', '100.0%']);
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
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
  },
);
