// Reading a sed script for what it runs and writes: the `e COMMAND` command, the `e` flag of `s`
// (the pattern space is run as a command), and `w FILE` / `W FILE` / the `w` flag of `s` (a file is
// truncated and written). A script that cannot be read is reported as such, so it can be gated.

export interface SedEffects {
  /** Commands given to `e`; an empty string runs the pattern space, which is data. */
  commands: string[];
  /** Files written by `w`, `W` and the `w` flag of `s`. */
  writes: string[];
  /** The script could not be read. */
  unreadable: boolean;
}

const NO_ARG = new Set('=dDgGhHlnNpPxzF}'.split(''));

/** The effects of a GNU sed script. */
export function sedEffects(script: string): SedEffects {
  const out: SedEffects = { commands: [], writes: [], unreadable: false };
  let i = 0;
  const n = script.length;
  const restOfLine = (): string => {
    const end = script.indexOf('\n', i);
    const text = script.slice(i, end < 0 ? n : end);
    i = end < 0 ? n : end + 1;
    return text.replace(/^\s+/, '');
  };
  const delimited = (delim: string): boolean => {
    for (; i < n; i++) {
      const c = script[i];
      if (c === '\\') i++;
      else if (c === delim) {
        i++;
        return true;
      } else if (c === '\n' && delim !== '\n') return false;
    }
    return false;
  };
  const skipAddress = (): boolean => {
    if (script[i] === '/' || script[i] === '\\') {
      const delim = script[i] === '\\' ? script[i + 1] : '/';
      i += script[i] === '\\' ? 2 : 1;
      if (delim === undefined || !delimited(delim)) return false;
      while (/[IM]/.test(script[i] ?? '')) i++;
      return true;
    }
    const m = /^(\d+(~\d+)?|\$|[+~]\d+)/.exec(script.slice(i));
    if (m) i += m[0].length;
    return true;
  };
  while (i < n) {
    const c = script[i] as string;
    if (/[\s;{}]/.test(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      restOfLine();
      continue;
    }
    if (!skipAddress()) return { ...out, unreadable: true };
    while (script[i] === ' ') i++;
    if (script[i] === ',') {
      i++;
      if (!skipAddress()) return { ...out, unreadable: true };
    }
    while (script[i] === ' ' || script[i] === '!') i++;
    const cmd = script[i];
    i++;
    if (cmd === undefined) break;
    if (cmd === '{' || NO_ARG.has(cmd)) continue;
    if (cmd === 's' || cmd === 'y') {
      const delim = script[i];
      i++;
      if (delim === undefined || delim === '\\' || delim === '\n') return { ...out, unreadable: true };
      if (!delimited(delim) || !delimited(delim)) return { ...out, unreadable: true };
      if (cmd === 'y') continue;
      for (;;) {
        const f = script[i];
        if (f === undefined || /[\s;}]/.test(f)) break;
        i++;
        if (f === 'e') out.commands.push('');
        else if (f === 'w') {
          out.writes.push(restOfLine());
          break;
        } else if (!/[gpiImM0-9]/.test(f)) return { ...out, unreadable: true };
      }
      continue;
    }
    if (cmd === 'e') {
      const text = restOfLine();
      out.commands.push(text);
      continue;
    }
    if (cmd === 'w' || cmd === 'W') {
      out.writes.push(restOfLine());
      continue;
    }
    if (cmd === 'r' || cmd === 'R' || cmd === 'a' || cmd === 'i' || cmd === 'c') {
      // Text to the end of the line, with backslash-newline continuations for a, i and c.
      let text = restOfLine();
      while (cmd !== 'r' && cmd !== 'R' && text.endsWith('\\') && i < n) text = restOfLine();
      continue;
    }
    if (/[:btTqQlLv]/.test(cmd)) {
      while (i < n && !/[;\n}]/.test(script[i] as string)) i++;
      continue;
    }
    return { ...out, unreadable: true };
  }
  return out;
}
