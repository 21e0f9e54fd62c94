import { describe, expect, it } from 'vitest';
import type { Classification } from './classify.js';
import { relevanceFor } from './evidence-relevance.js';
import { buildRails, type Channel } from './rails.js';
import { reason } from './reasons.js';
import type { Requirements } from './requirements.js';

const ID = '01JD0000000000000000000000';

function reviewRails(channel: Channel, review?: string) {
  const classification: Classification = { class: 'irreversible', rules: ['deploy.review'], gating: [] };
  const call = { tool: 'deploy', args: { env: 'production' } };
  const requirements: Requirements = {
    maxAgeS: 600,
    requireAttested: false,
    requiresAttempts: false,
    reads: ['deploy status'],
    probes: [],
    relevance: relevanceFor(classification, call),
  };
  return buildRails({
    call,
    classification,
    requirements,
    problems: [reason('review_required', `filed review ${ID}`, '/review')],
    channel,
    describe: () => undefined,
    ...(review !== undefined ? { review } : {}),
  });
}

describe('rails for a call waiting on a review', () => {
  it('tell an HTTP client where to poll, and ask for no prediction', () => {
    const { text, summary } = reviewRails('http', ID);
    expect(summary).toContain(`review ${ID}`);
    expect(text).toContain(`GET /v1/reviews/${ID}`);
    expect(text).toContain('An agent token cannot answer it');
    expect(text).not.toContain('Attach a prediction');
    expect(text).not.toContain('Read first');
  });

  it('tell an MCP client to call the same tool again once approved', () => {
    const { text } = reviewRails('mcp', ID);
    expect(text).toContain(`tollgate review approve ${ID}`);
    expect(text).toContain('call "deploy" again with the same arguments');
  });

  it('keep the evidence rails when no review is named', () => {
    const { text } = reviewRails('http');
    expect(text).toContain('Attach a prediction');
    expect(text).not.toContain('/v1/reviews/');
  });
});
