// Problem details are text a client (often a model) reads: the detail passes core's outgoing
// sanitiser whatever it was built from.
import { describe, expect, it } from 'vitest';
import { problemFor } from './problem.js';

describe('problemFor', () => {
  it('sanitises the detail but keeps its line feeds', () => {
    const p = problemFor('request_invalid', 422, 'bad key "a\u202eb\u2028c\u0085"\nsecond line\u001b[2J');
    expect(p.detail).toBe('bad key "ab c "\nsecond line');
  });
});
