// What an agent refused for a review (review.ts) reads next, phrased for its channel: who answers the
// request, how this channel learns the answer (HTTP polls GET /v1/reviews/{id}), and that the same
// call, unchanged, passes once after an approval. No prediction is asked for: a person decides.
import type { Channel } from './rails.js';
import { quoted } from './sanitise.js';

export function reviewSummary(id: string): string {
  return `A person must approve it first (review ${id}); no prediction or decline will let it through.`;
}

export function reviewLines(channel: Channel, id: string, tool: string): string[] {
  const final =
    'Retrying before an answer names the same request and does not count against you; a denial is final for it: do not retry a denied call.';
  const person = `An operator answers it: tollgate review approve ${id} --reason … (or deny), or POST /v1/reviews/${id}/approve (or /deny) with an operator token.`;
  switch (channel) {
    case 'http':
      return [
        `Poll GET /v1/reviews/${id} with your token until its state is approved (or denied); then POST /v1/check the same call again, unchanged: the approval lets it through once.`,
        `${person} An agent token cannot answer it.`,
        final,
      ];
    case 'mcp':
      return [
        `Tell the user review ${id} waits for them. ${person}`,
        `Once it is approved, call ${quoted(tool, 80)} again with the same arguments (no "tollgate" argument needed): the approval lets it through once.`,
        final,
      ];
    case 'cli':
    case 'claude-code':
    case 'library':
      return [
        `Ask a person to answer it. ${person}`,
        'Once it is approved, retry the exact same call, unchanged: the approval lets it through once.',
        final,
      ];
  }
}
