// Who may grant an override: an operator token of the config, or a human at a terminal outside an
// agent session — never "anyone" because no tokens are configured.
import { describe, expect, it } from 'vitest';
import { operatorName } from './commands/override.js';

const OPS = [{ token: 'operator-secret-0123456789', agent: 'oncall', operator: true }];

describe('operatorName', () => {
  const noAgent = () => [{ pid: 10, argv: ['-bash'] }];
  it('without operator tokens: needs an interactive terminal, not inside an agent session', () => {
    expect(() => operatorName([], {}, 'me', false, noAgent)).toThrow(/not an interactive terminal/);
    expect(() => operatorName([], { CLAUDECODE: '1' }, 'me', true, noAgent)).toThrow(
      /inside an agent session \(Claude Code: CLAUDECODE/,
    );
    expect(() => operatorName([], {}, 'me', true, () => [{ pid: 7, argv: ['claude'] }])).toThrow(
      /agent host runs this terminal \(Claude Code, pid 7\)/,
    );
    expect(() => operatorName([], {}, undefined, true, noAgent)).toThrow(/--operator NAME/);
    expect(operatorName([], {}, 'alice', true, noAgent)).toBe('alice');
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
