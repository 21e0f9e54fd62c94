// Unknown paths → 404, known paths with the wrong method → 405 with an Allow header; both as problems.
import type { Context, Hono } from 'hono';
import type { AppEnv } from './env.js';
import { httpProblem } from './problem.js';

export function notFoundHandler(app: Hono<AppEnv>): (c: Context<AppEnv>) => Response {
  let table: { pattern: RegExp; methods: Set<string> }[] | undefined;
  return (c) => {
    table ??= routeTable(app);
    const allowed = new Set<string>();
    for (const route of table)
      if (route.pattern.test(c.req.path)) for (const m of route.methods) allowed.add(m);
    if (allowed.size === 0) return httpProblem(c, 'route_not_found', `no route ${c.req.path.slice(0, 200)}`);
    const allow = [...allowed].sort().join(', ');
    return httpProblem(c, 'method_not_allowed', `${c.req.method} is not allowed here; use ${allow}`, {
      allow,
    });
  };
}

function routeTable(app: Hono<AppEnv>) {
  const byPath = new Map<string, Set<string>>();
  for (const route of app.routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    byPath.set(route.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({
    pattern: new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}$`),
    methods,
  }));
}
