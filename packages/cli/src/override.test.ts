// Who may grant an override: an operator token of the config, or a human at a terminal outside an
// agent session — never "anyone" because no tokens are configured.
import { describe, expect, it } from 'vitest';
import { operatorName } from './commands/override.js';

const OPS = [{ token: 'operator-secret-0123456789', agent: 'oncall', operator: true }];

describe('operatorName', () => {
  it('without operator tokens: needs an interactive terminal, not inside Claude Code', () => {
    expect(() => operatorName([], {}, 'me', false)).toThrow(/not an interactive terminal/);
    expect(() => operatorName([], { CLAUDECODE: '1' }, 'me', true)).toThrow(/inside a Claude Code session/);
    expect(operatorName([], {}, 'alice', true)).toBe('alice');
  });

  it('with operator tokens: the token decides, a terminal is not enough', () => {
    expect(() => operatorName(OPS, {}, 'me', true)).toThrow(/TOLLGATE_OPERATOR_TOKEN/);
    expect(() =>
      operatorName(OPS, { TOLLGATE_OPERATOR_TOKEN: 'operator-secret-012345678' }, undefined, true),
    ).toThrow(/does not hold/);
    expect(
      operatorName(
        OPS,
        { TOLLGATE_OPERATOR_TOKEN: 'operator-secret-0123456789', CLAUDECODE: '1' },
        'x',
        false,
      ),
    ).toBe('oncall');
  });
});
