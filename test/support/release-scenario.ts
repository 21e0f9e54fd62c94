// Test support for the agent-framework adapters (@tollgate/ai-sdk, @tollgate/openai-agents): one gate
// over a real SQLite store beside two release-notes files, and the scripted agent runs every adapter
// is held to — the same calls, envelopes and audit — so the adapters' tests differ only in how their
// framework runs the script and shows the results to the model.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGate, type Gate, loadPolicy, type Store } from '@tollgate/core';
import { openStore } from '@tollgate/store';
import { expect } from 'vitest';

/** One call of a scripted model: which tool it calls, with what input. */
export interface ScriptStep {
  tool: string;
  input: Record<string, unknown>;
}

export interface ReleaseFixture {
  dir: string;
  gate: Gate;
  store: Store;
  /** release.txt, holding 'release 1.3 approved'. */
  release: string;
  /** other.txt, holding 'release 1.3 approved elsewhere'. */
  other: string;
  close(): Promise<void>;
}

export async function openReleaseFixture(prefix: string): Promise<ReleaseFixture> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const store = await openStore(join(dir, 'tollgate.db'));
  const gate = createGate({ policy: loadPolicy(['builtin:mcp']), store });
  const release = join(dir, 'release.txt');
  const other = join(dir, 'other.txt');
  writeFileSync(release, 'release 1.3 approved');
  writeFileSync(other, 'release 1.3 approved elsewhere');
  return {
    dir,
    gate,
    store,
    release,
    other,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The observation a read of `path` through the read_text_file tool is. */
export const readOf = (path: string) => ({ tool: 'read_text_file', args: { path } });

/** A prediction that `release` will contain 'release 1.4', citing `quote` from a read of `cited`. */
export function predictionCiting(release: string, cited = release, quote = 'release 1.3 approved') {
  return {
    claims: [{ subject: readOf(release), op: 'contains', value: 'release 1.4' }],
    evidence: [{ source: readOf(cited), quote }],
  };
}

/** The write every scenario gates: release 1.4 over the release notes. */
export const releaseWrite = (release: string) => ({ path: release, content: 'release 1.4 approved' });

/**
 * Refused without an envelope, then a read, then the write citing it (dispatched), then another write
 * declined. The model should read: the rails, the file, 'written', the decline.
 */
export function dispatchScript(release: string): ScriptStep[] {
  const write = releaseWrite(release);
  const decline = {
    irreducible: 'whether the release was signed off',
    would_change_my_mind: ['a sign-off in the notes'],
    attempted_observations: [{ source: readOf(release) }],
  };
  return [
    { tool: 'write_file', input: write },
    { tool: 'read_text_file', input: { path: release } },
    { tool: 'write_file', input: { ...write, tollgate: { prediction: predictionCiting(release) } } },
    {
      tool: 'write_file',
      input: { path: release, content: 'release 2.0 approved', tollgate: { decline } },
    },
  ];
}

/**
 * Five writes, of which only the fourth may run: evidence never read, a read of another file, the
 * valid envelope, the same envelope replayed, and an envelope that does not parse.
 */
export function refusalScript(release: string, other: string): ScriptStep[] {
  const write = releaseWrite(release);
  const valid = predictionCiting(release);
  return [
    // Cites a read it never made.
    { tool: 'write_file', input: { ...write, tollgate: { prediction: valid } } },
    // Reads another file and cites that for this one.
    { tool: 'read_text_file', input: { path: other } },
    {
      tool: 'write_file',
      input: { ...write, tollgate: { prediction: predictionCiting(release, other, 'approved elsewhere') } },
    },
    // Reads the file, writes with a valid prediction, then replays the same envelope.
    { tool: 'read_text_file', input: { path: release } },
    { tool: 'write_file', input: { ...write, tollgate: { prediction: valid } } },
    { tool: 'write_file', input: { ...write, tollgate: { prediction: valid } } },
    // A broken envelope is named, not passed on.
    { tool: 'write_file', input: { ...write, tollgate: '{"prediction": ' } },
  ];
}

/** What the model must read for refusalScript's five writes, in order. */
export function expectRefusals(writesSeen: unknown[]): void {
  expect(writesSeen[0]).toContain('[evidence_not_observed]');
  expect(writesSeen[1]).toContain('[evidence_not_accepted]');
  expect(writesSeen[2]).toBe('written');
  expect(writesSeen[3]).toContain('[prediction_already_used]');
  expect(writesSeen[4]).toContain('does not parse');
}

/** dispatchScript's audit: refused, dispatched and settled with its claim matched, declined. */
export async function expectDispatchAudit(fixture: ReleaseFixture, session: string): Promise<void> {
  await fixture.gate.flush();
  const rows = await fixture.store.listAudit({ session });
  const decisions = rows.filter((r) => r.kind === 'decision' && r.tool === 'write_file');
  expect(decisions.map((r) => r.outcome)).toEqual(['rejected', 'dispatch', 'declined']);
  const outcome = rows.find((r) => r.kind === 'outcome');
  expect(outcome?.result?.status).toBe('ok');
  expect(outcome?.claims?.map((c) => c.result)).toEqual(['matched']);
}
