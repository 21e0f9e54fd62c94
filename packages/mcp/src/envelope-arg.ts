// The `tollgate` argument as the client sent it. Some clients send a nested object as a JSON string;
// that is decoded here (a translation), and everything else goes to core as given, which judges its
// shape and answers with rails.
import { decodeJson } from '@tollgate/core';

export type EnvelopeArg = { ok: true; envelope: unknown } | { ok: false; message: string };

export function envelopeArg(raw: unknown): EnvelopeArg {
  if (typeof raw !== 'string') return { ok: true, envelope: raw };
  const trimmed = raw.trim();
  if (!trimmed.startsWith('{')) return { ok: true, envelope: raw };
  try {
    return { ok: true, envelope: decodeJson(trimmed) };
  } catch (error) {
    return {
      ok: false,
      message: `the "tollgate" argument is a string that looks like JSON but does not parse: ${(error as Error).message}; send {"prediction": {...}} or {"decline": {...}} as an object`,
    };
  }
}
