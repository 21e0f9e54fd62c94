// Quoting one word for a POSIX shell, faithfully (no sanitising): used to rebuild command lines the
// shell will run, so every word reaches the program exactly as it was parsed.
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;
/** A tilde expands only at the start of a word or after `=` or `:`; elsewhere (`HEAD~1`) it is literal. */
const LITERAL_TILDE = /(?<=[^=:~])~/g;

export function shellWord(word: string): string {
  if (SAFE.test(word.replace(LITERAL_TILDE, ''))) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function shellLine(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}
