// A gated tool's input schema with the optional `tollgate` argument added. Whatever the tool was
// declared with (a zod schema, jsonSchema(), a standard schema), the SDK's own asSchema gives its JSON
// Schema and validator; the model sees the JSON Schema plus the envelope property, and validation
// takes the envelope off, checks the rest with the tool's own validator, and puts the envelope back
// for execute to split off again. The tool's own schema never sees the key, so a strict one holds.
import { TOLLGATE_ARG, withTollgateProperty } from '@tollgate/core';
import { asSchema, type FlexibleSchema, jsonSchema, type Schema } from 'ai';

type JsonObject = Record<string, unknown>;

export function withTollgateArg(inputSchema: FlexibleSchema<unknown>): Schema<unknown> {
  const base = asSchema(inputSchema);
  return jsonSchema<unknown>(
    async () => withTollgateProperty((await base.jsonSchema) as JsonObject) as never,
    {
      validate: async (value) => {
        if (!isRecord(value) || !(TOLLGATE_ARG in value)) return validateBase(base, value);
        const { [TOLLGATE_ARG]: envelope, ...rest } = value;
        const checked = await validateBase(base, rest);
        if (!checked.success) return checked;
        const own = isRecord(checked.value) ? checked.value : {};
        return { success: true, value: { ...own, [TOLLGATE_ARG]: envelope } };
      },
    },
  );
}

async function validateBase(base: Schema<unknown>, value: unknown) {
  if (!base.validate) return { success: true as const, value };
  return base.validate(value);
}

function isRecord(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
