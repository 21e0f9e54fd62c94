// The classify result for one command: the shape `classify --json` and `--batch` print.
import { classify, isGated, type Policy } from '@tollgate/core';

export interface ClassifyResult {
  irreversible: boolean;
  gated: boolean;
  class: string;
  rules: string[];
  segment?: string;
  /** Why a command could not be read statically (parse error, NUL byte, too long). */
  error?: string;
}

export function classifyCommand(policy: Policy, command: string): ClassifyResult {
  const c = classify(policy, { tool: 'shell', args: { command } });
  const result: ClassifyResult = {
    irreversible: c.class === 'irreversible',
    gated: isGated(c.class),
    class: c.class,
    rules: c.rules,
  };
  if (c.segment !== undefined) result.segment = c.segment;
  if (c.facts?.error !== undefined) result.error = c.facts.error;
  return result;
}
