import type {
  FindingSortField,
  FindingStatus,
} from '../../../common/field-rules/finding-values.js';
import type { FindingFilters } from '../findings.repository.js';

/** Accepted until a time now past (read as open). */
export const EXPIRED =
  "(status = 'accepted' AND accepted_until IS NOT NULL AND accepted_until <= :now)";

/** A status as stored, and what more its rows must meet to show as one of those asked. */
export interface StoredStatus {
  status: FindingStatus;
  /** On accepted_until, where an acceptance's end decides. */
  also?: string;
}

/**
 * The stored statuses behind `statuses` as the API shows them. When `noneExpired` (no
 * acceptance of those the filters keep is past its end), each status is its stored one.
 */
export function storedStatuses(
  statuses: readonly FindingStatus[],
  noneExpired: boolean,
): StoredStatus[] {
  const shown = new Set(statuses);
  const stored: StoredStatus[] = [...shown].map((status) => ({ status }));
  if (noneExpired) return stored;
  // An acceptance past its end reads as open.
  if (shown.has('open') && !shown.has('accepted'))
    return [...stored, { status: 'accepted', also: EXPIRED }];
  if (shown.has('accepted') && !shown.has('open'))
    return stored.map(({ status }) =>
      status === 'accepted' ? { status, also: `NOT ${EXPIRED}` } : { status },
    );
  return stored;
}

/** The filters all walks share, and each walk's own condition with its :named parameters. */
export interface OrderedWalks {
  rest: FindingFilters;
  walks: { condition: string; parameters: Record<string, unknown> }[];
}

/**
 * The columns that lead, before its sort column, the index that holds the list in each order
 * (IDX_findings_status_score, IDX_findings_fixed): within one value of each, a page is the
 * index read in order, its first rows.
 */
const ORDER_INDEX_PREFIXES: Partial<Record<FindingSortField, readonly ('severity' | 'status')[]>> =
  { score: ['status', 'severity'], fixedAt: ['status'] };

/**
 * A page asking several values of the columns its order's index leads with (open critical and
 * high findings by score, or an open status that includes expired acceptances) as one condition
 * per combination of them: each a walk of the index in order, where the whole is a read and a
 * sort of every row it keeps. Null when there are not several, or a column of the prefix is not
 * filtered (the index then holds no such walk).
 */
export function orderedWalks(
  filters: FindingFilters,
  sort: FindingSortField,
  noneExpired: boolean,
): OrderedWalks | null {
  const prefix = ORDER_INDEX_PREFIXES[sort];
  const { statuses, severities } = filters;
  if (prefix === undefined || statuses === undefined) return null;
  const bySeverity = prefix.includes('severity');
  if (bySeverity && severities === undefined) return null;
  const stored = storedStatuses(statuses, noneExpired);
  const walkSeverities = bySeverity ? [...new Set(severities)] : [undefined];
  if (stored.length * walkSeverities.length < 2) return null;
  const walks = stored.flatMap(({ status, also }) =>
    walkSeverities.map((severity) => ({ status, also, severity })),
  );
  return {
    rest: { ...filters, statuses: undefined, severities: bySeverity ? undefined : severities },
    walks: walks.map(({ status, also, severity }, index) => {
      const conditions = [`status = :walkStatus${index}`];
      const parameters: Record<string, unknown> = { [`walkStatus${index}`]: status };
      if (also !== undefined) conditions.push(also);
      if (severity !== undefined) {
        conditions.push(`severity = :walkSeverity${index}`);
        parameters[`walkSeverity${index}`] = severity;
      }
      return { condition: conditions.join(' AND '), parameters };
    }),
  };
}
