// Arguments checked against the tool's own input schema before the gate sees the call, so a
// malformed call gets a precise error and never consumes a prediction. Upstream schemas are
// untrusted: one that does not compile is skipped (the upstream still validates its own input).

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describeErrors, type SchemaProblem } from '@tollgate/contracts';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';

export type ArgsCheck = { ok: true } | { ok: false; problems: SchemaProblem[] };

// Lenient on purpose: the proxy judges shape, not the upstream author's schema style or formats.
const options = { strict: false, allErrors: true, validateFormats: false, addUsedSchema: false } as const;

export class ArgsValidator {
  private readonly compiled = new WeakMap<Tool, ValidateFunction | null>();
  private readonly draft7 = new Ajv(options);
  private readonly draft2019 = new Ajv2019(options);
  private readonly draft2020 = new Ajv2020(options);

  constructor(private readonly log: (line: string) => void = () => {}) {}

  check(tool: Tool, args: Record<string, unknown>): ArgsCheck {
    const validate = this.validatorFor(tool);
    if (!validate || validate(args)) return { ok: true };
    const problems = describeErrors(validate.errors ?? []).map((p) => ({
      path: p.path,
      message: p.message
        .replace(/^the document is/, 'the arguments are')
        .replace(/^the document has/, 'the arguments have'),
    }));
    return { ok: false, problems: problems.slice(0, 20) };
  }

  private validatorFor(tool: Tool): ValidateFunction | null {
    const cached = this.compiled.get(tool);
    if (cached !== undefined) return cached;
    let fn: ValidateFunction | null = null;
    try {
      const { $schema, ...schema } = tool.inputSchema as Record<string, unknown>;
      fn = this.ajvFor(typeof $schema === 'string' ? $schema : '').compile(schema);
    } catch (error) {
      this.log(
        `input schema of ${tool.name} does not compile, arguments go unchecked: ${(error as Error).message}`,
      );
    }
    this.compiled.set(tool, fn);
    return fn;
  }

  private ajvFor(dialect: string): Ajv | Ajv2019 | Ajv2020 {
    if (dialect.includes('2020-12')) return this.draft2020;
    if (dialect.includes('2019-09')) return this.draft2019;
    return this.draft7;
  }
}
