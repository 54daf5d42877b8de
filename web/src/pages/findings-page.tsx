import { useEffect, useState } from 'preact/hooks';
import {
  get,
  query,
  request,
  type Finding,
  type FindingStatus,
  type FindingSummary,
  type Severity,
  type User,
} from '../api';
import { navigate, useLocation } from '../router';
import { ErrorMessage, ExportButton, Field, Pager, useAsync, useTitle } from '../ui';
import { FindingTable, STATUS_LABELS, useAssetNames } from './finding-list';

const PAGE_SIZE = 50;
const FILTERS = ['vulnId', 'status', 'severity', 'overdue', 'source', 'site'] as const;
type Filter = (typeof FILTERS)[number];
const EMPTY = Object.fromEntries(FILTERS.map((name) => [name, ''])) as Record<Filter, string>;
const STATUSES: FindingStatus[] = ['open', 'accepted', 'false_positive', 'fixed'];
const SEVERITIES: Severity[] = ['critical', 'high', 'medium', 'low', 'none'];
const DEFAULT_SORT = '-score';

/** The values of a comma-separated list filter, with `value` put in or taken out. */
function toggled(list: string, value: string, on: boolean): string {
  const values = list.split(',').filter((one) => one !== '' && one !== value);
  if (on) values.push(value);
  return values.join(',');
}

/** Checkboxes for a filter that takes several values, kept as a comma-separated list. */
function Checks({
  legend,
  values,
  labels,
  list,
  onChange,
}: {
  legend: string;
  values: readonly string[];
  labels?: Record<string, string>;
  list: string;
  onChange: (list: string) => void;
}) {
  const chosen = list.split(',');
  return (
    <fieldset class="field checks">
      <legend class="field-label">{legend}</legend>
      <div>
        {values.map((value) => (
          <label key={value}>
            <input
              type="checkbox"
              value={value}
              checked={chosen.includes(value)}
              onChange={(event) => onChange(toggled(list, value, event.currentTarget.checked))}
            />
            {labels?.[value] ?? value}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The counts behind the filters, each a link to the findings it counts. */
function SummaryCounts({ summary }: { summary: FindingSummary }) {
  const link = (params: Record<string, string>, count: number, words: string) =>
    count === 0 ? (
      `${count} ${words}`
    ) : (
      <a href={`/findings${query(params)}`}>
        {count} {words}
      </a>
    );
  const bySeverity = (counts: Record<Severity, number>, extra: Record<string, string>) =>
    SEVERITIES.filter((severity) => counts[severity] > 0).map((severity, index) => (
      <span key={severity}>
        {index > 0 && ', '}
        {link({ ...extra, severity }, counts[severity], severity)}
      </span>
    ));
  const total = (counts: Record<Severity, number>) =>
    SEVERITIES.reduce((sum, severity) => sum + counts[severity], 0);
  const open = total(summary.open);
  const overdue = total(summary.overdue);
  return (
    <dl class="fields finding-counts">
      <div>
        <dt>Open</dt>
        <dd>
          {link({ status: 'open' }, open, 'open')}
          {open > 0 && <>: {bySeverity(summary.open, { status: 'open' })}</>}
        </dd>
      </div>
      <div>
        <dt>Overdue</dt>
        <dd>
          {link({ overdue: 'true' }, overdue, 'overdue')}
          {overdue > 0 && <>: {bySeverity(summary.overdue, { overdue: 'true' })}</>}
        </dd>
      </div>
      <div>
        <dt>Triaged</dt>
        <dd>
          {link({ status: 'accepted' }, summary.accepted, 'accepted')},{' '}
          {link({ status: 'false_positive' }, summary.falsePositive, 'false positive')}
        </dd>
      </div>
      <div>
        <dt>Fixed</dt>
        <dd>{link({ status: 'fixed', sort: '-fixedAt' }, summary.fixed, 'fixed')}</dd>
      </div>
      <div>
        <dt>Last 30 days</dt>
        <dd>
          {summary.openedLast30Days} first seen, {summary.fixedLast30Days} fixed
        </dd>
      </div>
    </dl>
  );
}

export function FindingsPage({ user }: { user: User }) {
  useTitle('Findings');
  const { params } = useLocation();
  const filters = Object.fromEntries(
    FILTERS.map((name) => [name, params.get(name) ?? '']),
  ) as Record<Filter, string>;
  const sort = params.get('sort') ?? DEFAULT_SORT;
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const filterKey = FILTERS.map((name) => filters[name]).join('\u0000');
  const [draft, setDraft] = useState(filters);
  // A link (the counts above the list, back and forward) changes the filters: the form follows.
  useEffect(() => setDraft(filters), [filterKey]);

  // The URL holds the list's state, so back/forward and reloads keep it.
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(location.search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === '') next.delete(key);
      else next.set(key, value);
    }
    const text = next.toString();
    navigate(`/findings${text ? `?${text}` : ''}`, true);
  };

  const key = `${filterKey}|${sort}|${page}`;
  const list = useAsync(async () => {
    const answer = await request<Finding[]>(
      'GET',
      `/api/findings${query({ ...filters, sort, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE })}`,
    );
    return {
      findings: answer.body,
      total: Number(answer.headers.get('x-total-count') ?? answer.body.length),
    };
  }, [key]);
  // The counts take the list's filters, not its paging or order.
  const summary = useAsync(
    () => get<FindingSummary>(`/api/findings/summary${query(filters)}`),
    [filterKey],
  );
  const findings = list.data?.findings ?? [];
  const names = useAssetNames(findings.map((finding) => finding.assetId));

  const applyFilters = (event: Event) => {
    event.preventDefault();
    update({ ...draft, page: '' });
  };
  const clearFilters = () => {
    setDraft(EMPTY);
    navigate('/findings', true);
  };
  const sortBy = (column: string) => {
    // Scores read highest first; dates oldest first (the longest open, the soonest due).
    const first = column === 'score' ? `-${column}` : column;
    const second = column === 'score' ? column : `-${column}`;
    update({ sort: sort === first ? second : first, page: '' });
  };

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const first = total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const last = Math.min(total, page * PAGE_SIZE);
  const canTriage = user.role !== 'viewer';

  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>Findings</h1>
        <ExportButton path="/api/findings/export" name="findings" params={{ ...filters, sort }} />
      </div>
      <ErrorMessage error={summary.error} />
      {summary.data && <SummaryCounts summary={summary.data} />}
      <form class="filters" role="search" onSubmit={applyFilters}>
        <Field label="Vulnerability id">
          <input
            name="vulnId"
            placeholder="CVE-2024-3094"
            value={draft.vulnId}
            onInput={(event) => setDraft({ ...draft, vulnId: event.currentTarget.value })}
          />
        </Field>
        {(['source', 'site'] as const).map((name) => (
          <Field key={name} label={name[0].toUpperCase() + name.slice(1)}>
            <input
              name={name}
              value={draft[name]}
              onInput={(event) => setDraft({ ...draft, [name]: event.currentTarget.value })}
            />
          </Field>
        ))}
        <Field label="Overdue">
          <select
            name="overdue"
            value={draft.overdue}
            onChange={(event) => setDraft({ ...draft, overdue: event.currentTarget.value })}
          >
            <option value="">any</option>
            <option value="true">overdue only</option>
            <option value="false">not overdue</option>
          </select>
        </Field>
        <Checks
          legend="Status"
          values={STATUSES}
          labels={STATUS_LABELS}
          list={draft.status}
          onChange={(status) => setDraft({ ...draft, status })}
        />
        <Checks
          legend="Severity"
          values={SEVERITIES}
          list={draft.severity}
          onChange={(severity) => setDraft({ ...draft, severity })}
        />
        <div class="filter-actions">
          <button type="submit">Filter</button>
          <button type="button" class="secondary" onClick={clearFilters}>
            Clear
          </button>
        </div>
      </form>
      <ErrorMessage error={list.error} />
      <p class="summary" aria-live="polite">
        {list.loading
          ? 'Loading…'
          : total === 0
            ? 'No findings match.'
            : `Findings ${first}–${last} of ${total}`}
      </p>
      <FindingTable
        findings={findings}
        loading={list.loading}
        caption={`Findings, sorted by ${sort.replace(/^-/, '')}`}
        names={names}
        canTriage={canTriage}
        onTriaged={() => {
          list.reload();
          summary.reload();
        }}
        sort={sort}
        onSort={sortBy}
      />
      <Pager page={page} pages={pages} onPage={(next) => update({ page: String(next) })} />
    </>
  );
}
