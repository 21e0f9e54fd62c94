// Every JSON Schema predicate a rule carries, with the key and JSON path it is compiled and cached
// under: the match predicates, the source matchers of its evidence and of its preconditions
// (`requires`, with their `latest_output` schemas), and the `review.when` predicate. The runtime compiler, the CLI's build-time
// precompilation and its predicate cache all walk rules through this one function.
import type { Requirement, Rule } from '@tollgate/contracts';

export interface PredicateSiteOf {
  /** `args`, `segment`, `call`, or `evidence.accept/0/segment` and the like. */
  key: string;
  /** JSON path of the schema inside its rule file, for messages. */
  path: string;
  schema: unknown;
  /**
   * A `latest_output` schema: compiled with `$data` enabled (one field compared with another), so
   * with its own ajv options (OUTPUT_AJV_OPTIONS), never mixed with the match predicates'.
   */
  data?: true;
}

const MATCH_KEYS = ['args', 'segment', 'call'] as const;
const MATCHER_KEYS = ['args', 'segment'] as const;
const EVIDENCE_LISTS = ['accept', 'required'] as const;

export function predicateSites(rule: Rule, index: number): PredicateSiteOf[] {
  const sites: PredicateSiteOf[] = [];
  for (const key of MATCH_KEYS) {
    const schema = rule.match?.[key];
    if (schema !== undefined) sites.push({ key, path: `/rules/${index}/match/${key}`, schema });
  }
  for (const list of EVIDENCE_LISTS) {
    for (const [i, matcher] of (rule.evidence?.[list] ?? []).entries()) {
      for (const key of MATCHER_KEYS) {
        const schema = matcher[key];
        if (schema === undefined) continue;
        sites.push({
          key: `evidence.${list}/${i}/${key}`,
          path: `/rules/${index}/evidence/${list}/${i}/${key}`,
          schema,
        });
      }
    }
  }
  const review = rule.review;
  if (typeof review === 'object' && review.when !== undefined)
    sites.push({ key: 'review.when', path: `/rules/${index}/review/when`, schema: review.when });
  for (const [i, requirement] of (rule.requires ?? []).entries()) {
    requirementSites(requirement, `requires/${i}`, `/rules/${index}/requires/${i}`, sites);
  }
  return sites;
}

const EVENT_KEYS = ['observed', 'dispatched'] as const;

/** A requirement's sites under `key`: its matchers' predicates, its anchor's, its latest_output, its any_of. */
function requirementSites(
  requirement: Requirement,
  key: string,
  path: string,
  into: PredicateSiteOf[],
): void {
  const matchers: [string, Requirement['observed']][] = [
    ...EVENT_KEYS.map((k) => [k, requirement[k]] as [string, Requirement['observed']]),
    ...EVENT_KEYS.map((k) => [`after/${k}`, requirement.after?.[k]] as [string, Requirement['observed']]),
  ];
  for (const [at, matcher] of matchers) {
    if (matcher === undefined) continue;
    for (const m of MATCHER_KEYS) {
      if (matcher[m] === undefined) continue;
      into.push({ key: `${key}/${at}/${m}`, path: `${path}/${at}/${m}`, schema: matcher[m] });
    }
  }
  if (requirement.latest_output !== undefined) {
    into.push({
      key: `${key}/latest_output`,
      path: `${path}/latest_output`,
      schema: requirement.latest_output,
      data: true,
    });
  }
  for (const [i, option] of (requirement.any_of ?? []).entries()) {
    requirementSites(option, `${key}/any_of/${i}`, `${path}/any_of/${i}`, into);
  }
}
