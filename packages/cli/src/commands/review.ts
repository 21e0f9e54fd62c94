// tollgate review: a person lists, shows, approves or denies the calls waiting for one (core's
// review.ts). Never for agents: the same proof of a person as `override` (person.ts), and the Claude
// Code hook refuses agents that try to run it.
import { answerReview, type ReviewRecord, reviewState, reviewView, systemClock } from '@tollgate/core';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { openRuntime } from '../runtime.js';
import { defineCommand, writeJson } from '../support.js';
import { operatorName } from './override.js';

const ACTIONS = ['list', 'show', 'approve', 'deny'] as const;

export const command = defineCommand(
  {
    name: 'review',
    summary: 'a person: list, show, approve or deny the calls waiting for review',
    options: { reason: 'string', operator: 'string', status: 'string', session: 'string', limit: 'string' },
    usage: `
Usage: tollgate review list [--status pending|approved|denied] [--session S] [--limit N] [--json]
       tollgate review show ID [--json]
       tollgate review approve ID --reason TEXT [--operator NAME] [--json]
       tollgate review deny ID --reason TEXT [--operator NAME] [--json]

A call a rule marks review (or that reached the deny ceiling) is refused with review_required and
the id of a request. Approving lets exactly that call, in that session, through once (within an
hour); denying is final for the request. Every answer is an audit row with the person and reason.
Unanswered requests expire into refusals, never into approvals.

A person only, as for tollgate override: TOLLGATE_OPERATOR_TOKEN set to an operator token of the
config, or an interactive terminal no agent host runs (with --operator NAME).
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const [action, id] = args.positionals;
    if (!ACTIONS.includes(action as (typeof ACTIONS)[number]))
      throw new UsageError('tollgate review needs list, show, approve or deny', 'see tollgate review --help');
    const runtime = await openRuntime({ cwd: io.cwd, env: io.env, channel: 'cli' });
    try {
      const person = operatorName(
        runtime.loaded.config.tokens ?? [],
        io.env,
        option(args, 'operator'),
        io.interactive === true,
        io.ancestors,
      );
      const now = systemClock.now();
      const view = (r: ReviewRecord) => reviewView(r, now);
      if (action === 'list') {
        const status = option(args, 'status');
        if (status !== undefined && !['pending', 'approved', 'denied'].includes(status))
          throw new UsageError('--status is pending, approved or denied', 'e.g. --status pending');
        const session = option(args, 'session');
        const rows = await runtime.store.listReviews({
          limit: Number(option(args, 'limit') ?? 50) || 50,
          ...(status !== undefined ? { status: status as ReviewRecord['status'] } : {}),
          ...(session !== undefined ? { session } : {}),
        });
        if (flag(args, 'json')) writeJson(io, rows.map(view));
        else for (const r of rows) io.stdout.write(`${line(r, reviewState(r, now))}\n`);
        return 0;
      }
      if (id === undefined)
        throw new UsageError(`tollgate review ${action} needs the review ID`, 'see tollgate review list');
      const review = await runtime.store.getReview(id);
      if (review === undefined) throw new UsageError(`no review ${id}`, 'see tollgate review list');
      if (action === 'show') {
        if (flag(args, 'json')) writeJson(io, view(review));
        else
          io.stdout.write(
            `${line(review, reviewState(review, now))}\n${JSON.stringify(review.call, null, 2)}\n${notices(review)}`,
          );
        return 0;
      }
      const reason = option(args, 'reason')?.trim();
      if (!reason)
        throw new UsageError(`tollgate review ${action} needs --reason`, "e.g. --reason 'checked the diff'");
      const answered = await answerReview(runtime.store, systemClock, {
        id,
        answer: action === 'approve' ? 'approved' : 'denied',
        person,
        reason,
      });
      if (!answered.ok) {
        io.stderr.write(`tollgate: ${answered.message}\n`);
        return 1;
      }
      if (flag(args, 'json')) writeJson(io, view(answered.review));
      else io.stdout.write(`review ${id} ${answered.review.status} by ${person} (audited)\n`);
      return 0;
    } finally {
      await runtime.close();
    }
  },
);

/** How announcing the request went, one line per webhook (none when no webhook is configured). */
export function notices(r: ReviewRecord): string {
  const at = (t: number) => new Date(t).toISOString();
  return (r.notifications ?? [])
    .map((n) => {
      const tries = `${n.attempts} attempt${n.attempts === 1 ? '' : 's'}`;
      if (n.delivered_at !== undefined)
        return `notice ${n.target}: delivered ${at(n.delivered_at)} (${tries})\n`;
      if (n.attempts === 0) return `notice ${n.target}: queued\n`;
      const next = n.next_at !== undefined ? `retrying at ${at(n.next_at)}` : 'gave up';
      return `notice ${n.target}: failed (${tries}, last: ${n.last_error ?? '?'}), ${next}\n`;
    })
    .join('');
}

function line(r: ReviewRecord, state: string): string {
  const call = JSON.stringify(r.call).slice(0, 120);
  return `${r.id}  ${state.padEnd(8)} ${r.rule}  session=${r.session}  expires=${new Date(r.expires_at).toISOString()}  ${call}`;
}
