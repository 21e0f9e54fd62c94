// Every JSON Schema predicate a rule carries, with the key and JSON path it is compiled and cached
// under: the match predicates and the source matchers of its evidence. The runtime compiler, the
// CLI's build-time precompilation and its predicate cache all walk rules through this one function.
import type { Rule } from '@tollgate/contracts';

export interface PredicateSiteOf {
  /** `args`, `segment`, `call`, or `evidence.accept/0/segment` and the like. */
  key: string;
  /** JSON path of the schema inside its rule file, for messages. */
  path: string;
  schema: unknown;
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
  return sites;
}
