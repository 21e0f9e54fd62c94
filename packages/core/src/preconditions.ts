// Preconditions ("X before Y"): a rule's `requires`, evaluated over the session's ledger — the
// observations the gate recorded (reads and results of dispatched calls) and the calls it let through.
// Reads newest first through bounded windows (Store.ledgerWindows, all of a check's at once), a
// small page first and the whole window only when a requirement is not met on the small one; then
// judges synchronously. Events and parsed outputs are kept per row object, so a store that hands out
// the same rows again (SQLite's ledger cache) costs no parsing on the next check.
import type { Observation } from '@tollgate/contracts';
import type { ShellFacts } from '@tollgate/shell';
import { type CompiledMatcher, matchesRead, type ReadView, readView } from './policy/matchers.js';
import type { CompiledAnchor, CompiledRequirement, CompiledRule, EventKind } from './policy/types.js';
import type { DispatchRecord, LedgerRequest, Store } from './ports.js';
import { describeUnmet } from './preconditions-text.js';

/** Events per window: the small page every check reads, and the most a requirement looks back. */
export const FIRST_PAGE = 4;
export const LEDGER_WINDOW = 512;

export interface Unmet {
  rule: string;
  /** One line: the requirement's `why` (or what it asks), then what would satisfy it. */
  text: string;
  /** The literal reads or calls that would satisfy it, when they can be named. */
  satisfy: string[];
}

export type PreconditionCheck = { met: true } | { met: false; unmet: Unmet[] };

/** A requirement that cannot be evaluated (an output cut short): the gate decides as on a store failure. */
export class PreconditionUnavailable extends Error {}

export interface LedgerSource {
  store: Pick<Store, 'ledgerWindows'>;
  session: string;
  now: number;
  /** Called once before dispatches are read: write-behind decision rows must be in the store first. */
  beforeDispatches?: () => Promise<void>;
}

/** One event of the ledger in time order (epoch ms, then id: ids are ULIDs). */
interface Event {
  at: number;
  id: string;
  view: ReadView;
}

interface ObservedEvent extends Event {
  observation: Observation;
  /** The output as latest_output reads it, once parsed (see outputOf). */
  output?: { value: unknown };
}

interface Window {
  events: Event[];
  /** Whether older events exist beyond this window. */
  cut: boolean;
}

type Windows = ReadonlyMap<string, Window>;

/**
 * Every window the rules can ask for, read in one `Store.ledgerWindows` call: one snapshot of the
 * ledger, one transaction's cost. A window per kind and tool filter (a matcher naming exact tools
 * reads only their events, so a thousand shell reads do not push the one Read it wants out of it),
 * shared by every requirement.
 */
async function readWindows(src: LedgerSource, limit: number, plan: WindowPlan): Promise<Windows> {
  // Write-behind decision rows must be in the store before dispatches are read.
  if (plan.dispatches) await src.beforeDispatches?.();
  const answers = await src.store.ledgerWindows(src.session, requestsOf(plan, limit));
  const out = new Map<string, Window>();
  plan.keys.forEach((k, i) => {
    const rows = answers[i] ?? [];
    const events =
      k.kind === 'observed'
        ? observedEvents(rows as Observation[])
        : (rows as DispatchRecord[]).map(dispatchEvent);
    out.set(k.key, { events, cut: rows.length >= limit });
  });
  return out;
}

function windowOf(windows: Windows, kind: EventKind, matcher: CompiledMatcher): Window {
  const found = windows.get(windowKey(kind, matcher).key);
  if (!found) throw new Error(`preconditions: window ${kind} was not planned`); // wantedWindows walks every matcher
  return found;
}

interface WindowKey {
  key: string;
  kind: EventKind;
  tools: string[] | undefined;
}

/** Per matcher and kind, computed once: a check looks its windows up many times. */
const windowKeys = new WeakMap<CompiledMatcher, Partial<Record<EventKind, WindowKey>>>();

function windowKey(kind: EventKind, matcher: CompiledMatcher): WindowKey {
  let keys = windowKeys.get(matcher);
  if (keys === undefined) {
    keys = {};
    windowKeys.set(matcher, keys);
  }
  let k = keys[kind];
  if (k === undefined) {
    const tools = exactTools(matcher);
    k = { key: `${kind}\u0000${tools?.join('\u0000') ?? '*'}`, kind, tools };
    keys[kind] = k;
  }
  return k;
}

/** The windows a check reads, and its requests per page size (made once per plan). */
interface WindowPlan {
  keys: WindowKey[];
  dispatches: boolean;
  requests: Map<number, LedgerRequest[]>;
}

function planOf(keys: Iterable<WindowKey>): WindowPlan {
  const list = [...keys];
  return { keys: list, dispatches: list.some((k) => k.kind === 'dispatched'), requests: new Map() };
}

function requestsOf(plan: WindowPlan, limit: number): LedgerRequest[] {
  let requests = plan.requests.get(limit);
  if (requests === undefined) {
    requests = plan.keys.map((k) => ({
      kind: k.kind,
      query: { since: 0, limit, ...(k.tools ? { tools: k.tools } : {}) },
    }));
    plan.requests.set(limit, requests);
  }
  return requests;
}

/** Per rule, computed once: every window its requirements (their options and `after` anchors) can read. */
const rulePlans = new WeakMap<CompiledRule, { windows: Map<string, WindowKey>; plan: WindowPlan }>();

function wantedWindows(rules: readonly CompiledRule[]): WindowPlan {
  if (rules.length === 1) return planOfRule(rules[0] as CompiledRule).plan;
  const out = new Map<string, WindowKey>();
  for (const rule of rules) for (const [key, k] of planOfRule(rule).windows) out.set(key, k);
  return planOf(out.values());
}

function planOfRule(rule: CompiledRule): { windows: Map<string, WindowKey>; plan: WindowPlan } {
  const known = rulePlans.get(rule);
  if (known) return known;
  const out = new Map<string, WindowKey>();
  const add = (kind: EventKind, matcher: CompiledMatcher) => {
    const k = windowKey(kind, matcher);
    out.set(k.key, k);
  };
  const walk = (req: CompiledRequirement): void => {
    if (req.kind === 'any_of') {
      for (const option of req.options) walk(option);
      return;
    }
    add(req.kind, req.matcher);
    if (req.after) add(req.after.kind, req.after.matcher);
  };
  for (const req of rule.requires ?? []) walk(req);
  const made = { windows: out, plan: planOf(out.values()) };
  rulePlans.set(rule, made);
  return made;
}

/**
 * An observation's event, once per observation object: a store may hand out the same (frozen) rows
 * on every check (the SQLite store's cache), and then a check parses nothing it parsed before.
 * Null: an observation that never counts.
 */
const observedEventOf = new WeakMap<Observation, ObservedEvent | null>();

function observedEvents(rows: readonly Observation[]): ObservedEvent[] {
  const events: ObservedEvent[] = [];
  for (const o of rows) {
    let e = observedEventOf.get(o);
    if (e === undefined) {
      // Only what the gate saw itself counts, and what the agent was told never does.
      e =
        !o.attested || o.kind === 'directive'
          ? null
          : { at: Date.parse(o.observed_at), id: o.id, view: lazyView(o), observation: o };
      observedEventOf.set(o, e);
    }
    if (e !== null) events.push(e);
  }
  return events;
}

/** The exact tool names a matcher names, or undefined when it names a pattern (then every event is read). */
function exactTools(matcher: CompiledMatcher): string[] | undefined {
  const tools = Array.isArray(matcher.spec.tool) ? matcher.spec.tool : [matcher.spec.tool];
  return tools.some((t) => t.includes('*')) ? undefined : [...tools].sort();
}

export async function checkPreconditions(
  rules: readonly CompiledRule[],
  src: LedgerSource,
): Promise<PreconditionCheck> {
  const wanted = wantedWindows(rules);
  const first = evaluateAll(rules, await readWindows(src, FIRST_PAGE, wanted), src.now);
  if (first.unmet.length === 0) return { met: true };
  // Met on the newest events is met on all of them (see `anchorTime`); unmet may need a longer look.
  const result = first.cut
    ? evaluateAll(rules, await readWindows(src, LEDGER_WINDOW, wanted), src.now)
    : first;
  return result.unmet.length === 0 ? { met: true } : { met: false, unmet: result.unmet };
}

function evaluateAll(rules: readonly CompiledRule[], windows: Windows, now: number) {
  const unmet: Unmet[] = [];
  let cut = false;
  for (const rule of rules) {
    for (const requirement of rule.requires ?? []) {
      const r = evaluate(requirement, windows, now);
      cut ||= r.cut;
      if (!r.met) unmet.push({ rule: rule.rule.id, ...describeUnmet(requirement, r.newest) });
    }
  }
  return { unmet, cut };
}

interface Evaluation {
  met: boolean;
  /** Some window this evaluation read was cut short. */
  cut: boolean;
  /** For an unmet latest_output: the newest matching observation, whose output did not satisfy it. */
  newest?: Observation;
}

function evaluate(req: CompiledRequirement, windows: Windows, now: number): Evaluation {
  if (req.kind === 'any_of') {
    let cut = false;
    for (const option of req.options) {
      const r = evaluate(option, windows, now);
      if (r.met) return { met: true, cut: false };
      cut ||= r.cut;
    }
    return { met: false, cut };
  }
  const after = req.after ? anchorTime(req.after, windows) : { at: undefined, cut: false };
  const window = windowOf(windows, req.kind, req.matcher);
  const cut = window.cut || after.cut;
  const oldest = req.maxAgeS === undefined ? Number.NEGATIVE_INFINITY : now - req.maxAgeS * 1000;
  const match = window.events.find(
    (e) => e.at >= oldest && (after.at === undefined || newer(e, after.at)) && matches(req.matcher, e),
  );
  if (!match) return { met: false, cut };
  if (req.kind !== 'observed' || !req.output) return { met: true, cut };
  const event = match as ObservedEvent;
  event.output ??= { value: outputOf(event.observation) };
  return req.output(event.output.value)
    ? { met: true, cut }
    : { met: false, cut: false, newest: event.observation };
}

/**
 * The newest event matching an `after` anchor. Not found in a window that was cut short, the oldest
 * event of that window stands in for it: then only events newer than everything the gate could not
 * see count, which is never less strict than the real anchor.
 */
function anchorTime(anchor: CompiledAnchor, windows: Windows): { at?: Event; cut: boolean } {
  const window = windowOf(windows, anchor.kind, anchor.matcher);
  const events = window.events;
  const found = events.find((e) => matches(anchor.matcher, e));
  if (found) return { at: found, cut: false };
  return window.cut ? { at: events[events.length - 1] ?? FOREVER, cut: true } : { cut: false };
}

const FOREVER: Event = { at: Number.POSITIVE_INFINITY, id: '', view: { tool: '', args: {} } };

function newer(e: Event, than: Event): boolean {
  return e.at > than.at || (e.at === than.at && e.id > than.id);
}

function matches(matcher: CompiledMatcher, e: Event): boolean {
  return matcher.tool(e.view.tool) && matchesRead(matcher, e.view);
}

/** The output a latest_output schema validates: JSON when the recorded output parses, else the text. */
function outputOf(o: Observation): unknown {
  const text = o.excerpt.trim();
  try {
    return JSON.parse(text);
  } catch {
    if (o.output_bytes > Buffer.byteLength(o.excerpt)) {
      throw new PreconditionUnavailable(
        `the recorded output of observation ${o.id} was cut at ${Buffer.byteLength(o.excerpt)} bytes, so a precondition cannot read it`,
      );
    }
    return o.excerpt;
  }
}

/** A read view parsed only when a matcher looks at it (a shell source costs a parse). */
function lazyView(o: Observation): ReadView {
  if (typeof o.source !== 'string') return { tool: o.source.tool, args: o.source.args ?? {} };
  let view: ReadView | undefined;
  const source = o.source;
  return {
    tool: 'shell',
    get args() {
      view ??= readView(source);
      return view.args;
    },
    get facts() {
      view ??= readView(source);
      return view.facts as ShellFacts; // a shell source always parses into facts
    },
  };
}

/** A dispatched call's event, once per record object (as for observations). */
const dispatchEventOf = new WeakMap<DispatchRecord, Event>();

function dispatchEvent(d: DispatchRecord): Event {
  const known = dispatchEventOf.get(d);
  if (known) return known;
  const args = d.args ?? {};
  const view: ReadView =
    d.tool === 'shell' && typeof args.command === 'string'
      ? lazyView({ source: args.command } as Observation)
      : { tool: d.tool, args: d.args ?? { '/truncated': true } };
  const event = { at: d.at, id: d.id, view };
  dispatchEventOf.set(d, event);
  return event;
}
