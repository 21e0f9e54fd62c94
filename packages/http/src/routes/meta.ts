// GET /healthz (asks the store), GET /metrics (Prometheus text), GET /openapi.json (the generated
// document). Public: they carry no ledger contents.
import type { Hono } from 'hono';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { openApiDocument } from '../openapi.js';

export function metaRoutes(app: Hono<AppEnv>, deps: Deps): void {
  app.get('/healthz', async (c) => {
    try {
      await deps.store.health();
      return c.json({ status: 'ok' });
    } catch (error) {
      deps.logger.warn({ req_id: c.get('requestId'), err: error }, 'store health check failed');
      return c.json({ status: 'unavailable', detail: 'the store cannot serve' }, 503);
    }
  });

  app.get('/metrics', async (c) => {
    const text = await deps.metrics.registry.metrics();
    return c.body(text, 200, { 'content-type': deps.metrics.registry.contentType });
  });

  const document = JSON.stringify(openApiDocument(), null, 2);
  app.get('/openapi.json', (c) => c.body(document, 200, { 'content-type': 'application/json' }));
}
