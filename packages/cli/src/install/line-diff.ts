// A unified-style line diff for `--dry-run`: what a change would do to a file, as `-`/`+` lines with
// a little context. Host config files are small, so a plain longest-common-subsequence table does.
const CONTEXT = 2;
const MAX_CELLS = 4_000_000;

export function lineDiff(before: string, after: string, label: string): string {
  const a = before === '' ? [] : before.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  const head = [`--- ${label}`, `+++ ${label}`];
  if (a.length * b.length > MAX_CELLS)
    return [...head, `@@ ${a.length} lines become ${b.length} lines (too large to show) @@`].join('\n');
  // lcs[i][j]: the common subsequence length of a[i..] and b[j..]
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      (lcs[i] as Uint32Array)[j] =
        a[i] === b[j]
          ? ((lcs[i + 1] as Uint32Array)[j + 1] as number) + 1
          : Math.max((lcs[i + 1] as Uint32Array)[j] as number, (lcs[i] as Uint32Array)[j + 1] as number);
  const ops: { kind: ' ' | '-' | '+'; line: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i] as string });
      i++;
      j++;
    } else if (
      i < a.length &&
      (j >= b.length ||
        ((lcs[i + 1] as Uint32Array)[j] as number) >= ((lcs[i] as Uint32Array)[j + 1] as number))
    )
      ops.push({ kind: '-', line: a[i++] as string });
    else ops.push({ kind: '+', line: b[j++] as string });
  }
  const keep = ops.map((_op, k) =>
    ops.slice(Math.max(0, k - CONTEXT), k + CONTEXT + 1).some((o) => o.kind !== ' '),
  );
  const out = [...head];
  let gap = false;
  ops.forEach((op, k) => {
    if (!keep[k]) {
      gap = true;
      return;
    }
    if (gap) out.push('@@');
    gap = false;
    out.push(`${op.kind}${op.line}`);
  });
  return out.join('\n');
}
