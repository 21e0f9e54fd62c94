// A path as a case-insensitive file system compares it (macOS's and Windows' defaults): compatibility
// forms (the Kelvin sign is a K), case, and the trailing dots and spaces Windows drops from a name.
// Used only to find more paths that may be the same file, never fewer.

/** Whether a path has anything folding would change: capitals, non-ASCII, a trailing dot or space. */
export const FOLDABLE = /[A-Z\u0080-\uffff]|[. ](?:\/|$)/;

export function foldPath(path: string): string {
  if (!FOLDABLE.test(path)) return path;
  return path
    .normalize('NFKC')
    .toLowerCase()
    .replace(/(?<=[^/])[. ]+(?=\/|$)/g, '');
}
