// `tmp=$(mktemp -d); …; rm -rf "$tmp"`: the agent's scratch-directory idiom. A variable the command
// assigns is not trusted in general (a loop, a `read`, a later assignment may change it), but one
// assigned exactly once, from a plain `mktemp` that creates in the temp directory, and otherwise only
// used, holds a new path there. Only the whole word counts: if mktemp fails the variable is empty,
// and `rm -rf "$tmp"` then removes nothing while `rm -rf "$tmp"/x` would remove `/x`; for the same
// reason a variable that also names a directory to work in (`cd "$tmp"`, `git -C "$tmp"`: an empty
// one leaves the command where it is) is not read.

/** `$NAME`, `${NAME}` (quoted or not: the written word as expanded, which keeps the source text). */
const WHOLE_USE = /^\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})$/;

/** mktemp options that keep the file in the temp directory (`-t`'s template may not hold a `/`). */
const MKTEMP =
  /^mktemp((?:\s+(?:-[dqu]+|--directory|--quiet|--dry-run|--tmpdir|-t\s+[\w.%+-]+|--suffix=[\w.%+-]+))*)\s*$/;

const COMPUTED_NAME =
  /(^|[^\w-])(declare|typeset|local|export|readonly|mapfile|readarray|getopts|eval|let|unset)(?![\w-])|(^|[^\w-])read(?![\w-])[^;&|\n]*[$`'"\\]|(^|[^\w-])(printf|wait)(?![\w-])[^;&|\n]*\s-[a-z]*[vp]/;

/** The name as a word of its own: not an option's letter (`-d`), a path's part (`/tmp`) or a suffix. */
export const mention = (name: string) => new RegExp(`(^|[^\\w/.-])${name}(?![\\w/.-])`, 'g');
const SHADOWED = /(^|[\s;&|(])(function\s+mktemp(?![\w-])|mktemp\s*\(\s*\))|\balias\b|(^|[^\w])PATH\+?=/;

/**
 * The variable a written word is, when every text of the command assigns it exactly once, by
 * `NAME=$(mktemp …)` creating in the temp directory, and mentions it otherwise only as `$NAME` or
 * `${NAME}`; undefined otherwise.
 */
export function mktempVariable(word: string, texts: readonly string[]): string | undefined {
  const m = WHOLE_USE.exec(word);
  const name = m?.[1] ?? m?.[2];
  if (name === undefined) return undefined;
  // The assignment opens the command, so it runs before anything else, in this shell and not as a
  // prefix of another command (`false && tmp=…`, `(tmp=…)`, `tmp=… true` leave it unset).
  const first = texts[0] ?? '';
  if (!new RegExp(`^\\s*${name}=("?)\\$\\([^()\`$]*\\)\\1\\s*(&&|;|\\n|$)`).test(first)) return undefined;
  // A name spelled with quotes or backslashes (`t''mp`, `t\\mp`) is still the name: such a spelling
  // anywhere is a mention this reading cannot see.
  // Counted as an identifier wherever it stands (`"$tmp"/x` is `$tmp/x` without its quotes).
  const identifier = new RegExp(`(^|[^\\w])${name}(?!\\w)`, 'g');
  for (const text of texts) {
    const bare = text.replace(/['"\\]/g, '');
    const count = (t: string) => t.match(identifier)?.length ?? 0;
    if (count(bare) !== count(text)) return undefined;
  }
  let assignments = 0;
  // Where an empty value means "here" (`cd ""`, `git -C ""`), a failed mktemp would leave the
  // command in the project: such a use is not read as the temp path.
  const here = new RegExp(
    `(^|[^\\w-])(cd|pushd|-C|--directory|--chdir|--cwd|--prefix|--git-dir|--work-tree|--dir)(=|\\s+)(--\\s+)?"?\\$\\{?${name}(?!\\w)`,
  );
  for (const text of texts) {
    // mktemp must be the program: not a function, an alias or another PATH's; and no builtin may
    // assign a name it computes (`declare "${n}mp=/"`, `read -r t${x}mp`, `printf -v`).
    if (SHADOWED.test(text) || here.test(text) || COMPUTED_NAME.test(text)) return undefined;
    for (const found of text.matchAll(mention(name))) {
      const at = (found.index ?? 0) + (found[1] as string).length;
      const before = text.slice(Math.max(0, at - 2), at);
      const after = text.slice(at + name.length);
      // Uses: `$NAME` (not `$NAME=`… which is no assignment anyway) and `${NAME}` exactly.
      if (before.endsWith('$') && !before.endsWith('\\$')) continue;
      if (before === '${' && after.startsWith('}')) continue;
      const value = /^=(?:"\$\(([^()`$]*)\)"|\$\(([^()`$]*)\))(?=[\s;&|)]|$)/.exec(after);
      const command = value?.[1] ?? value?.[2];
      if (command === undefined || !MKTEMP.test(command.trim())) return undefined;
      if (++assignments > 1) return undefined;
    }
  }
  return assignments === 1 ? name : undefined;
}

/**
 * Whether nothing in the command runs once `NAME=$(mktemp …)` at its start fails: the assignment
 * takes mktemp's status, and `&&` (or a pipe within such a step) is all that follows it — no `;`,
 * newline, `||` or background `&`. Characters are looked at as written, quotes or not: stricter
 * than the shell, never looser. Other texts of the parse (substitution bodies, `sh -c` strings) are
 * pieces of the command's own text, or must not mention the name.
 */
export function mktempChained(name: string, texts: readonly string[]): boolean {
  const text = texts[0];
  if (text === undefined) return false;
  if (texts.slice(1).some((t) => !text.includes(t) && mention(name).test(t))) return false;
  const rest = text.replace(/^\s*[A-Za-z_]\w*=("?)\$\([^()`$]*\)\1\s*&&/, '');
  if (rest === text) return false;
  return !/[;\n]|\|\||&(?!&)|(?<!&)&/.test(rest.replace(/&&/g, ' '));
}
