// tollgate audit replay --policy FILE: the recorded calls classified again under the configured rule
// files replaced by FILE (the builtin trust boundary stays), through the same gate set-up as the real
// runs (project, paths), and what would change. The result is core's replayAudit document.
import { isAbsolute, resolve } from 'node:path';
import { type Gate, type Policy, type ReplayResult, replayAudit, type Store } from '@tollgate/core';
import { loadPolicyFor } from '../policy-loader.js';
import { FILES_POLICY } from '../runtime.js';
import { table } from './audit-report-text.js';

/** The policy to replay under: FILE in place of the configured rule files, beside builtin:files. */
export function replayPolicy(file: string, cwd: string): Policy {
  return loadPolicyFor([FILES_POLICY, isAbsolute(file) ? file : resolve(cwd, file)], undefined);
}

/** `gate` is built over the replay policy; it only classifies, so it decides and writes nothing. */
export function replay(
  store: Pick<Store, 'exportAudit'>,
  gate: Pick<Gate, 'classify'>,
  window: { since?: number; until?: number },
): Promise<ReplayResult> {
  return replayAudit(
    store.exportAudit({ ...window, kind: 'decision' }),
    (call) => gate.classify(call, undefined, call.cwd),
    window,
  );
}

export function replayText(r: ReplayResult, file: string): string {
  const out = [
    `replay of ${r.calls} recorded call${r.calls === 1 ? '' : 's'} under ${file} (${r.window.since ?? 'the beginning'} → ${r.window.until ?? 'now'}): ${r.newly_gated.count} newly gated, ${r.no_longer_gated.count} no longer gated, ${r.rules_changed.count} gated by other rules, ${r.unchanged} unchanged${r.skipped > 0 ? `, ${r.skipped} skipped (arguments truncated in the audit)` : ''}`,
  ];
  const rules = Object.entries(r.by_rule);
  if (rules.length > 0)
    out.push(
      '',
      ...table(
        ['rule', 'newly gated', 'no longer gated', 'matches more', 'matches fewer'],
        rules.map(([id, x]) => [
          id,
          String(x.newly_gated),
          String(x.no_longer_gated),
          String(x.matched_more),
          String(x.matched_fewer),
        ]),
      ),
    );
  for (const [title, change] of [
    ['newly gated', r.newly_gated],
    ['no longer gated', r.no_longer_gated],
    ['gated by other rules', r.rules_changed],
  ] as const) {
    if (change.count === 0) continue;
    out.push(
      '',
      `${title} (${change.count}${change.rows.length < change.count ? `, first ${change.rows.length}` : ''}):`,
      ...table(
        ['at', 'decision', 'tool', 'was', 'rules before', 'rules after'],
        change.rows.map((x) => [
          x.at.slice(0, 19),
          x.audit_id,
          x.tool,
          x.outcome ?? '-',
          x.rules_before.join(',') || '-',
          x.rules_after.join(',') || '-',
        ]),
      ),
    );
  }
  return `${out.join('\n')}\n`;
}
