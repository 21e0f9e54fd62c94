// Host settings that switch hooks off whatever the hook entries say: Claude Code's disableAllHooks,
// Codex's `[features] hooks = false` in config.toml, Gemini CLI's hooksConfig.enabled = false (or
// "tollgate" in hooksConfig.disabled). Read from the project's and the user's files; a file that
// cannot be read is named as a problem, since it may hold the switch.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { HostId } from './hosts.js';
import { type Json, readJsonFile } from './json-file.js';
import { isObject } from './merge.js';

export function hooksSwitchedOff(host: HostId, project: string, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  switch (host) {
    case 'claude-code':
      return jsonSwitches(
        [
          join(project, '.claude', 'settings.json'),
          join(project, '.claude', 'settings.local.json'),
          join(home, '.claude', 'settings.json'),
        ],
        (doc) => (doc.disableAllHooks === true ? 'disableAllHooks: true' : undefined),
      );
    case 'codex': {
      const user = env.CODEX_HOME && isAbsolute(env.CODEX_HOME) ? env.CODEX_HOME : join(home, '.codex');
      return [join(project, '.codex', 'config.toml'), join(user, 'config.toml')]
        .filter((f) => existsSync(f) && tomlHooksOff(readFileSync(f, 'utf8')))
        .map((f) => `[features] hooks = false in ${f}`);
    }
    case 'gemini':
      return jsonSwitches(
        [join(project, '.gemini', 'settings.json'), join(home, '.gemini', 'settings.json')],
        (doc) => {
          const config = isObject(doc.hooksConfig) ? doc.hooksConfig : {};
          if (config.enabled === false) return 'hooksConfig.enabled: false';
          if (Array.isArray(config.disabled) && config.disabled.includes('tollgate'))
            return 'hooksConfig.disabled lists "tollgate"';
          if (isObject(doc.hooks) && doc.hooks.enabled === false) return 'hooks.enabled: false';
          return undefined;
        },
      );
    default:
      return [];
  }
}

function jsonSwitches(files: string[], off: (doc: Json) => string | undefined): string[] {
  const out: string[] = [];
  for (const file of files) {
    try {
      const read = readJsonFile(file);
      const why = read.exists ? off(read.doc) : undefined;
      if (why) out.push(`${why} in ${file}`);
    } catch (error) {
      out.push(`${(error as Error).message.replace(/; nothing was changed$/, '')} (it may switch hooks off)`);
    }
  }
  return out;
}

/** `hooks = false` in the [features] table, `features.hooks = false`, or `features = { hooks = false }`. */
export function tomlHooksOff(text: string): boolean {
  let table = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, '').trim();
    if (line.startsWith('#') || line === '') continue;
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      table = (header[1] as string).replace(/\s/g, '');
      continue;
    }
    if (table === 'features' && /^"?hooks"?\s*=\s*false$/.test(line)) return true;
    if (table === '' && /^features\s*\.\s*"?hooks"?\s*=\s*false$/.test(line)) return true;
    if (table === '' && /^features\s*=\s*\{.*\bhooks\s*=\s*false\b.*\}$/.test(line)) return true;
  }
  return false;
}
