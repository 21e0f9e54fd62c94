// `tollgate audit list --help`: the part of a command's usage that concerns one subcommand — its
// usage lines, its description, the options those lines name and the exit codes — cut from the one
// usage text, so the two can never disagree.

export function subUsage(usage: string, name: string, sub: string): string | undefined {
  const lines = usage.trim().split('\n');
  const forms = lines
    .filter((l) => new RegExp(`^(Usage: |\\s+)tollgate ${name} ${sub}( |$)`).test(l))
    .map((l) => l.replace(/^\s*(Usage: )?/, ''));
  if (forms.length === 0) return undefined;
  const described = block(lines, new RegExp(`^  ${sub}(\\s|$)`));
  const options = new Set(forms.join(' ').match(/--[a-z][a-z-]*/g) ?? []);
  const optionLines = lines
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => {
      const m = /^ {2}(--[a-z][a-z-]*)/.exec(l);
      return m?.[1] !== undefined && options.has(m[1]) && m[1] !== '--json';
    })
    .flatMap(({ i }) => block(lines, undefined, i));
  const exit = block(lines, /^Exit codes:/);
  return [
    `Usage: ${forms[0]}`,
    ...forms.slice(1).map((f) => `       ${f}`),
    '',
    ...described,
    ...(optionLines.length > 0 ? ['', ...optionLines] : []),
    ...(exit.length > 0 ? ['', ...exit] : []),
    '',
  ].join('\n');
}

/** The lines of one entry: the line that starts it and the deeper-indented lines that continue it. */
function block(lines: string[], start: RegExp | undefined, at?: number): string[] {
  const first = at ?? lines.findIndex((l) => start?.test(l) === true);
  if (first < 0) return [];
  const indent = (lines[first] ?? '').search(/\S/);
  const out = [lines[first] as string];
  for (const line of lines.slice(first + 1)) {
    // An unindented paragraph (Exit codes: …) runs to the blank line.
    if (line.trim() === '' || (indent > 0 && line.search(/\S/) <= indent)) break;
    out.push(line);
  }
  return out;
}
