// GET /: the dashboard page. Public, because it holds no data: its script asks the API with a token.
import type { Hono } from 'hono';
import { DASHBOARD_CSP, DASHBOARD_HTML } from '../dashboard/page.js';
import type { AppEnv } from '../env.js';

export function dashboardRoutes(app: Hono<AppEnv>): void {
  app.get('/', (c) =>
    c.html(DASHBOARD_HTML, 200, {
      'content-security-policy': DASHBOARD_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    }),
  );
}
