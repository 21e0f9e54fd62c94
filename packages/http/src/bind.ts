// Where the service may listen: anywhere with tokens configured; without tokens only on loopback,
// because an open gate on a network address would let anyone file predictions and read the audit.
import { isIP } from 'node:net';
import { TollgateFault } from '@tollgate/core';

export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

export function assertBindable(host: string, tokensConfigured: boolean): void {
  if (tokensConfigured || isLoopback(host)) return;
  throw new TollgateFault(
    'config_invalid',
    `refusing to listen on ${host} with no tokens configured: anyone who can reach it could read the audit and file predictions. Add tokens to tollgate.config.yaml (tokens: [{token, agent, sessions?, operator?}]) or bind to 127.0.0.1.`,
    { host },
  );
}
