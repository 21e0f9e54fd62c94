// A scripted language model for tests: the real SDK's MockLanguageModelV3, answering each step with
// the next tool call of a script (or text when the script is done), and keeping what it was sent, so
// a test can read exactly what the model saw: its tools' input schemas and every tool result.
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

export interface ScriptedCall {
  tool: string;
  input: Record<string, unknown>;
}

export interface SeenResult {
  tool: string;
  type: string;
  value: unknown;
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

export function scriptedModel(script: ScriptedCall[]) {
  const calls: LanguageModelV3CallOptions[] = [];
  let step = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async (options): Promise<LanguageModelV3GenerateResult> => {
      calls.push(options);
      const next = script[step++];
      if (!next)
        return {
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: `call-${step}`,
            toolName: next.tool,
            input: JSON.stringify(next.input),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
  /** Every tool result the model was sent, in order (the prompt of the last step holds them all). */
  const seen = (): SeenResult[] =>
    (calls.at(-1)?.prompt ?? []).flatMap((message) =>
      message.role === 'tool'
        ? message.content.flatMap((part) =>
            part.type === 'tool-result'
              ? [
                  {
                    tool: part.toolName,
                    type: part.output.type,
                    value: 'value' in part.output ? part.output.value : undefined,
                  },
                ]
              : [],
          )
        : [],
    );
  return { model, calls, seen };
}
