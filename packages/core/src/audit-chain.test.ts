import type { AuditRow } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { chainRow, GENESIS_HASH, verifyChain } from './audit-chain.js';

function chain(n: number): AuditRow[] {
  const rows: AuditRow[] = [];
  let prev = GENESIS_HASH;
  for (let i = 1; i <= n; i++) {
    const row = chainRow(
      {
        id: `01JD3QK8Z5X7Y9A1B2C3D4E5F${i}`,
        at: new Date(i * 1000).toISOString(),
        kind: 'decision',
        session: 's',
        outcome: 'pass',
      },
      i,
      prev,
    );
    rows.push(row);
    prev = row.hash;
  }
  return rows;
}

describe('verifyChain', () => {
  it('accepts an untouched chain', () => {
    expect(verifyChain(chain(5))).toEqual({ ok: true, rows: 5 });
  });

  it('finds an edited row', () => {
    const rows = chain(5);
    rows[2] = { ...rows[2]!, outcome: 'dispatch' };
    const check = verifyChain(rows);
    expect(check.ok).toBe(false);
    if (!check.ok)
      expect(check.broken_at).toMatchObject({ seq: 3, problem: expect.stringContaining('edited') });
  });

  it('finds a deleted row', () => {
    const rows = chain(5);
    rows.splice(1, 1);
    const check = verifyChain(rows);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.broken_at.seq).toBe(3);
  });

  it('finds two rows swapped', () => {
    const rows = chain(5);
    [rows[1], rows[2]] = [rows[2]!, rows[1]!];
    const check = verifyChain(rows);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.broken_at.seq).toBe(3);
  });

  it('finds a row whose seq was rewritten to hide a deletion', () => {
    const rows = chain(4);
    rows.splice(1, 1);
    rows[1] = { ...rows[1]!, seq: 2 };
    rows[2] = { ...rows[2]!, seq: 3 };
    expect(verifyChain(rows).ok).toBe(false);
  });
});
