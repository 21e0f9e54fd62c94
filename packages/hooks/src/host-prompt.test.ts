import { describe, expect, it } from 'vitest';
import { personAtHost } from './host-prompt.js';

describe('personAtHost', () => {
  const cli = { CLAUDE_CODE_ENTRYPOINT: 'cli' };
  it('only the interactive CLI in a mode that prompts', () => {
    expect(personAtHost({ permission_mode: 'default' }, cli)).toBe(true);
    expect(personAtHost({ permission_mode: 'plan' }, cli)).toBe(true);
  });
  it('when unsure, no: other entrypoints, CI, modes that auto-answer, no mode', () => {
    for (const entry of ['sdk-cli', 'sdk-ts', 'sdk-py', 'CLI', ' cli', '']) {
      expect(personAtHost({ permission_mode: 'default' }, { CLAUDE_CODE_ENTRYPOINT: entry }), entry).toBe(
        false,
      );
    }
    expect(personAtHost({ permission_mode: 'default' }, {})).toBe(false);
    expect(personAtHost({ permission_mode: 'default' }, { ...cli, CI: 'true' })).toBe(false);
    for (const mode of ['auto', 'bypassPermissions', 'dontAsk', 'acceptEdits', 'Default', undefined]) {
      expect(personAtHost(mode === undefined ? {} : { permission_mode: mode }, cli), String(mode)).toBe(
        false,
      );
    }
  });
});
