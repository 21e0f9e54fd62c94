// Day rollups of the report's additive figures (audit_rollup): per UTC day, agent, tool and first
// reason code, the sums of report-sums.ts over that day's rows — once for the rows themselves
// (rule '') and once per rule the rows name. Every append adds its row in the same transaction as
// the row (the upsert below computes the row's values from the facts it has just written, with the
// very aggregate the report would run), and migration 0013 builds them from the facts with that
// same aggregate, so a rollup always equals the report's sum over the raw rows of its day.
//
// Key columns are NOT NULL (primary key on both stores), yet agent, tool and reason may be NULL and
// may be '': a key stores NULL as '' and a value v as '=' || v, which keeps the two apart.
import { FLAG_KEYS, FLAG_SUMS, FLAG_VALUES, ROW_VALUES, SUM_KEYS, SUMS } from './report-sums.js';

export const DAY_MS = 86_400_000;

/** The key of a nullable text column, in SQL. */
const key = (column: string) => `coalesce('=' || ${column}, '')`;

/** A key as stored → the value (null for NULL). */
export function fromKey(stored: unknown): string | null {
  const s = String(stored ?? '');
  return s === '' ? null : s.slice(1);
}

/** A value → its key, for a filter. */
export function toKey(value: string): string {
  return `=${value}`;
}

export const ROLLUP_KEYS = ['day', 'rule', 'agent', 'tool', 'reason'] as const;
/** The value columns: every additive figure, the newest decision, and the three flag counts. */
export const ROLLUP_VALUES = [...SUM_KEYS, 'last_ms', ...FLAG_KEYS] as const;
const COLUMNS = [...ROLLUP_KEYS, ...ROLLUP_VALUES].join(', ');

/** The reported rows (decisions, outcomes) with their predecessors, as the report's scans join them. */
const FACTS = 'audit_facts f left join audit_facts p on p.seq = f.prev_seq';
const REPORTED = "f.kind in ('decision', 'outcome')";
const KEYS_OF_F = `f.at_ms / ${DAY_MS} as day, ${key('f.agent')} as agent, ${key('f.tool')} as tool,
  ${key('f.reason')} as reason`;

/** The rollup rows of the facts rows `where` selects (rule ''): summed, or each row's own values. */
function rowSums(where: string, summed: boolean): string {
  const values = summed ? `${SUMS}, ${FLAG_SUMS}` : `${ROW_VALUES}, ${FLAG_VALUES}`;
  return `select ${KEYS_OF_F}, '' as rule, ${values}
    from ${FACTS} where ${REPORTED} and ${where}${summed ? ' group by 1, 2, 3, 4' : ''}`;
}

/** The rollup rows per rule of the audit_rules rows `where` selects (each joined to its facts). */
function ruleSums(where: string, summed: boolean): string {
  const values = summed ? `${SUMS}, ${FLAG_SUMS}` : `${ROW_VALUES}, ${FLAG_VALUES}`;
  return `select ${KEYS_OF_F}, ${key('r.rule')} as rule, ${values}
    from audit_rules r cross join ${FACTS} where f.seq = r.seq and ${REPORTED} and ${where}${
      summed ? ' group by 1, 2, 3, 4, 5' : ''
    }`;
}

/**
 * The append's upsert: the row of seq p(1) (= p(2)) added to its day's rollups, for the row and for
 * each of its rules — its own values of the figures, no grouping (a row names a rule once). Run
 * after its facts and rules are written, in the same transaction.
 */
export function rollupUpsertSql(p: (i: number) => string): string {
  const add = ROLLUP_VALUES.filter((c) => c !== 'last_ms').map(
    (c) => `${c} = audit_rollup.${c} + excluded.${c}`,
  );
  // Neither max() (NULL if any argument is, on SQLite) nor greatest() (PostgreSQL only) fits both.
  const newest = `last_ms = case when excluded.last_ms is null or audit_rollup.last_ms >= excluded.last_ms
    then audit_rollup.last_ms else excluded.last_ms end`;
  return `insert into audit_rollup (${COLUMNS})
    select ${COLUMNS} from (${rowSums(`f.seq = ${p(1)}`, false)} union all ${ruleSums(`r.seq = ${p(2)}`, false)}) d
    where true
    on conflict (${ROLLUP_KEYS.join(', ')}) do update set ${[...add, newest].join(', ')}`;
}

/** Builds audit_rollup from every facts row (migration 0013; bulk loaders after their load). */
export const ROLLUP_REBUILD_SQL = [
  `insert into audit_rollup (${COLUMNS}) select ${COLUMNS} from (${rowSums('1 = 1', true)}) d`,
  `insert into audit_rollup (${COLUMNS}) select ${COLUMNS} from (${ruleSums('1 = 1', true)}) d`,
] as const;
