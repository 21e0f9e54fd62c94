// Which process a dispatch was let through for: only a live ancestor of the asking process, the very
// same process (start time), counts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claimsDir, processId, recordVia, viaIsAncestor } from './dispatch-via.js';

const state = mkdtempSync(join(tmpdir(), 'tollgate-via-'));
afterAll(() => rmSync(state, { recursive: true, force: true }));
const id = (n: number) => `01JZZZZZZZZZZZZZZZZZZZZZ${String(n).padStart(2, '0')}`;

describe.runIf(process.platform === 'linux')('dispatch-via', () => {
  it('reads a process by pid and start time', () => {
    const me = processId(process.pid);
    expect(me?.pid).toBe(process.pid);
    expect(me?.start).toMatch(/^\d+$/);
    expect(processId(process.pid)).toEqual(me);
    expect(processId(2 ** 22 + 17)).toBeUndefined();
  });

  it('matches a dispatch recorded for an ancestor of this process, and nothing else', () => {
    recordVia(state, id(1), processId(process.ppid));
    expect(viaIsAncestor(state, id(1))).toBe(true);
    // This process itself is no ancestor of itself.
    recordVia(state, id(2), processId(process.pid));
    expect(viaIsAncestor(state, id(2))).toBe(false);
    // The parent's pid with another start time: a reused pid, another process.
    const parent = processId(process.ppid);
    writeFileSync(
      join(claimsDir(state), `${id(3)}.via`),
      JSON.stringify({ pid: process.ppid, start: `${Number(parent?.start) + 1}` }),
    );
    expect(viaIsAncestor(state, id(3))).toBe(false);
    // Nothing recorded, a malformed record, or a name that is not an audit id.
    expect(viaIsAncestor(state, id(4))).toBe(false);
    writeFileSync(join(claimsDir(state), `${id(5)}.via`), '{"pid": "1"}');
    expect(viaIsAncestor(state, id(5))).toBe(false);
    expect(viaIsAncestor(state, '../../etc/passwd')).toBe(false);
  });
});
