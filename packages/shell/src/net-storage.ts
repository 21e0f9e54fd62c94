// Uploads to cloud object storage: `aws s3 cp|mv|sync LOCAL s3://…`, `aws s3api put-object`,
// `gsutil cp|mv|rsync`, `gcloud storage cp|mv|rsync`, `rclone copy|move|sync … REMOTE:path`,
// `s3cmd|s5cmd put|cp|sync`, `rclone rcat`, `azcopy copy|sync`, `az storage blob|file upload`, `mc cp|mv|mirror|put`. Data
// that reached a bucket has left the machine. A copy from a bucket to here, between buckets, or a
// dry run sends nothing of ours.
import type { ShellEgress, ShellSegment } from './types.js';

/** A cloud storage URL (or an https URL, for azcopy). */
const BUCKET_URL = /^(s3|gs|az|wasbs?|abfss?|r2|b2|oss|cos|https?):\/\//i;
/** An rclone remote: `name:path` (a single letter before `:` is a Windows drive). */
const RCLONE_REMOTE = /^[\w.-]{2,}:/;
/** mc: `alias/bucket/key` — a path that is not spelled as a local one (`./x`, `/x`, `~/x`). */
const MC_TARGET = /^(?![.~/])[\w.-]+\/[^/]/;

/** Dry-run options, per program (az's `-n` is a name). */
const DRY: Record<string, RegExp> = {
  aws: /^--dryrun$/,
  gcloud: /^--dry-run$/,
  rclone: /^(--dry-run|-n)$/,
  s3cmd: /^(--dry-run|-n)$/,
  azcopy: /^--dry-run(=true)?$/,
  az: /^--dryrun$/,
  mc: /^--dry-run$/,
};

/**
 * An upload: some local operand before the last remote one (option values the segment keeps as
 * operands, `--exclude '.git/*'`, `--acl public-read`, may follow the destination).
 */
function upload(operands: readonly string[], remote: RegExp): ShellEgress | undefined {
  let at = -1;
  for (let k = operands.length - 1; k >= 0; k--)
    if (remote.test(operands[k] as string)) {
      at = k;
      break;
    }
  if (at <= 0) return undefined;
  const destination = operands[at] as string;
  if (!operands.slice(0, at).some((s) => !remote.test(s))) return undefined;
  const host = /^[a-z0-9]+:\/\/([^/]+)/i.exec(destination)?.[1] ?? destination.split(/[:/]/)[0] ?? '';
  return { kind: 'copy', data: true, hosts: host === '' ? [] : [host], remote: true };
}

export function storageEgress(seg: ShellSegment): ShellEgress | undefined {
  const dry = DRY[seg.program];
  if (dry && seg.flags.some((f) => dry.test(f))) return undefined;
  const pos = seg.positionals;
  const [a, b] = pos;
  switch (seg.program) {
    case 'aws':
      if (a === 's3' && /^(cp|mv|sync)$/.test(b ?? '')) return upload(pos.slice(2), BUCKET_URL);
      if (a === 's3api' && /^(put-object|upload-part)$/.test(b ?? ''))
        return { kind: 'copy', data: true, hosts: [], remote: true };
      return undefined;
    case 'gsutil':
      // `-n` is a dry run of rsync only (cp's is no-clobber).
      if (a === 'rsync' && seg.flags.includes('-n')) return undefined;
      if (/^(cp|mv|rsync)$/.test(a ?? '')) return upload(pos.slice(1), BUCKET_URL);
      return undefined;
    case 'gcloud':
      if (a === 'storage' && /^(cp|mv|rsync)$/.test(b ?? '')) return upload(pos.slice(2), BUCKET_URL);
      return undefined;
    case 'rclone':
      // `rclone rcat REMOTE:path` uploads its stdin.
      if (a === 'rcat') return { kind: 'copy', data: true, hosts: [], remote: true };
      if (/^(copy|copyto|move|moveto|sync|bisync)$/.test(a ?? '')) return upload(pos.slice(1), RCLONE_REMOTE);
      return undefined;
    case 's5cmd':
    case 's3cmd':
      if (/^(put|sync|mv|cp)$/.test(a ?? '')) return upload(pos.slice(1), BUCKET_URL);
      return undefined;
    case 'azcopy':
      if (/^(copy|cp|sync)$/.test(a ?? '')) return upload(pos.slice(1), BUCKET_URL);
      return undefined;
    case 'az':
      if (
        a === 'storage' &&
        ((/^(blob|file|fs)$/.test(b ?? '') && pos.slice(2).some((p) => /^(upload(-batch)?|sync)$/.test(p))) ||
          b === 'copy')
      )
        return { kind: 'copy', data: true, hosts: [], remote: true };
      return undefined;
    case 'mc':
      if (/^(cp|mv|mirror|put)$/.test(a ?? '')) return upload(pos.slice(1), MC_TARGET);
      return undefined;
    default:
      return undefined;
  }
}
