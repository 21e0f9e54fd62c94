// Whitespace-insensitive containment: a quote the agent copied from an output still matches when
// line breaks or runs of spaces differ.
export function foldWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function containsFolded(haystack: string, needle: string): boolean {
  const n = foldWhitespace(needle);
  return n.length > 0 && foldWhitespace(haystack).includes(n);
}
