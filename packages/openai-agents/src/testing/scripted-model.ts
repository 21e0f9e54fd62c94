// A scripted model for tests: the Agents SDK's own Model interface, answering each turn with the next
// function call of a script (or a final message when the script is done), and keeping every request,
// so a test can read exactly what the model saw: its tools' parameters and every function result.
import { type Model, type ModelRequest, type ModelResponse, Usage } from '@openai/agents-core';

export interface ScriptedCall {
  tool: string;
  input: Record<string, unknown>;
}

export interface SeenResult {
  tool: string;
  output: string;
}

export function scriptedModel(script: ScriptedCall[]) {
  const requests: ModelRequest[] = [];
  let turn = 0;
  const model: Model = {
    async getResponse(request) {
      requests.push(request);
      const next = script[turn++];
      const output: ModelResponse['output'] = next
        ? [
            {
              type: 'function_call',
              callId: `call-${turn}`,
              name: next.tool,
              arguments: JSON.stringify(next.input),
              status: 'completed',
            },
          ]
        : [
            {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'done' }],
            },
          ];
      return { usage: new Usage(), output };
    },
    getStreamedResponse() {
      throw new Error('the scripted model does not stream');
    },
  };
  /** Every function result the model was sent, in order (the last request holds them all). */
  const seen = (): SeenResult[] => {
    const input = requests.at(-1)?.input;
    if (!Array.isArray(input)) return [];
    return input.flatMap((item) =>
      item.type === 'function_call_result'
        ? [
            {
              tool: item.name,
              output:
                typeof item.output === 'string'
                  ? item.output
                  : 'text' in item.output
                    ? String(item.output.text)
                    : JSON.stringify(item.output),
            },
          ]
        : [],
    );
  };
  return { model, requests, seen };
}
