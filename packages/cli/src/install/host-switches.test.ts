// The host switches doctor reads: Codex's [features] hooks = false (and not a profile's), Claude Code's
// disableAllHooks, Gemini CLI's hooksConfig; and the dry-run diff.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectHosts } from './detect.js';
import { hooksSwitchedOff, tomlHooksOff } from './host-switches.js';
import { lineDiff } from './line-diff.js';

const FIXTURES = join(import.meta.dirname, '../../../../test/fixtures/host-configs');
const dir = mkdtempSync(join(tmpdir(), 'tollgate-switches-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('host switches', () => {
  it('reads Codex [features] hooks = false, dotted and inline, and ignores other tables and comments', () => {
    expect(tomlHooksOff(readFileSync(join(FIXTURES, 'codex/config-hooks-off.toml'), 'utf8'))).toBe(true);
    expect(tomlHooksOff(readFileSync(join(FIXTURES, 'codex/config-hooks-on.toml'), 'utf8'))).toBe(false);
    expect(tomlHooksOff('features.hooks = false\n')).toBe(true);
    expect(tomlHooksOff('features = { web_search_request = true, hooks = false }\n')).toBe(true);
    expect(tomlHooksOff('[ features ]\n"hooks" = false\n')).toBe(true);
    expect(tomlHooksOff('# [features]\n# hooks = false\n')).toBe(false);
  });

  it('names the file that switches hooks off, per host', () => {
    const project = join(dir, 'p');
    const home = join(dir, 'home');
    mkdirSync(join(project, '.codex'), { recursive: true });
    mkdirSync(join(project, '.claude'), { recursive: true });
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(project, '.codex', 'config.toml'), '[features]\nhooks = false\n');
    writeFileSync(join(project, '.claude', 'settings.local.json'), '{"disableAllHooks": true}');
    writeFileSync(join(home, '.gemini', 'settings.json'), '{"hooksConfig": {"disabled": ["tollgate"]}}');
    const env = { HOME: home };
    expect(hooksSwitchedOff('codex', project, env)).toEqual([
      `[features] hooks = false in ${join(project, '.codex', 'config.toml')}`,
    ]);
    expect(hooksSwitchedOff('claude-code', project, env)[0]).toContain('disableAllHooks: true in');
    expect(hooksSwitchedOff('gemini', project, env)[0]).toContain('hooksConfig.disabled lists "tollgate"');
    expect(hooksSwitchedOff('cursor', project, env)).toEqual([]);
  });
});

describe('detection', () => {
  it('finds hosts by project directory, home directory and program on PATH, and says which', () => {
    const project = join(dir, 'detect');
    const home = join(dir, 'detect-home');
    const bin = join(dir, 'bin');
    mkdirSync(join(project, '.cursor'), { recursive: true });
    mkdirSync(join(project, '.github', 'hooks'), { recursive: true });
    mkdirSync(join(home, '.gemini'), { recursive: true });
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'codex'), '#!/bin/sh\n');
    chmodSync(join(bin, 'codex'), 0o755);
    writeFileSync(join(bin, 'claude'), 'not executable');
    const found = detectHosts(project, { HOME: home, PATH: `${bin}:relative/dir` });
    expect(found).toEqual([
      { host: 'codex', because: [`codex on PATH (${join(bin, 'codex')})`] },
      { host: 'gemini', because: ['~/.gemini'] },
      { host: 'cursor', because: ['project .cursor'] },
      { host: 'copilot', because: ['project .github/hooks'] },
    ]);
  });
});

describe('the dry-run diff', () => {
  it('shows removed and added lines with context', () => {
    const diff = lineDiff('{\n  "a": 1\n}\n', '{\n  "a": 1,\n  "b": 2\n}\n', 'f.json');
    expect(diff.split('\n')).toEqual([
      '--- f.json',
      '+++ f.json',
      ' {',
      '-  "a": 1',
      '+  "a": 1,',
      '+  "b": 2',
      ' }',
    ]);
  });
});
