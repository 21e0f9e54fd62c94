// Which agent hosts are present, by an explicit rule: a host is present when its project directory
// exists in the project root (.claude, .codex, .gemini, .cursor, .github/hooks), or its user
// directory exists in HOME (~/.claude, ~/.codex or $CODEX_HOME, ~/.gemini, ~/.cursor, ~/.copilot),
// or its program is an executable file on PATH (claude, codex, gemini, cursor-agent or cursor,
// copilot). Each detection names what it found.
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { HOST_IDS, HOSTS, type HostId } from './hosts.js';

export interface Detected {
  host: HostId;
  /** What was found: "project .codex", "~/.claude", "claude on PATH (/usr/local/bin/claude)". */
  because: string[];
}

export function detectHosts(project: string, env: NodeJS.ProcessEnv): Detected[] {
  const home = env.HOME || homedir();
  const out: Detected[] = [];
  for (const id of HOST_IDS) {
    const { detect } = HOSTS[id];
    const because: string[] = [];
    for (const d of detect.projectDirs) if (isDir(join(project, d))) because.push(`project ${d}`);
    const homeDirs = detect.homeDirs.map((d) => join(home, d));
    if (id === 'codex' && env.CODEX_HOME && isAbsolute(env.CODEX_HOME)) homeDirs.push(env.CODEX_HOME);
    for (const d of homeDirs)
      if (isDir(d)) because.push(d.startsWith(`${home}/`) ? `~/${d.slice(home.length + 1)}` : d);
    for (const p of detect.programs) {
      const at = onPath(p, env.PATH ?? '');
      if (at !== undefined) because.push(`${p} on PATH (${at})`);
    }
    if (because.length > 0) out.push({ host: id, because });
  }
  return out;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function onPath(program: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const file = join(dir, program);
    try {
      const s = statSync(file);
      if (s.isFile() && (s.mode & 0o111) !== 0) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}
