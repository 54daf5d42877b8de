import { useEffect, useRef, useState } from 'preact/hooks';
import {
  get,
  messageOf,
  patch,
  query,
  request,
  type Asset,
  type Finding,
  type FindingStatus,
  type Triage,
} from '../api';
import { DateText, ErrorMessage, Field, SeverityBadge, useAsync } from '../ui';

export const STATUS_LABELS: Record<FindingStatus, string> = {
  open: 'open',
  accepted: 'accepted',
  false_positive: 'false positive',
  fixed: 'fixed',
};

// At most this many findings of one asset are read for its page.
const ASSET_LIMIT = 1000;

type Decision = Triage['status'];

const DECISIONS: [Decision, string][] = [
  ['false_positive', 'False positive'],
  ['accepted', 'Accept the risk until a date'],
  ['open', 'Open again (undo the triage)'],
];

function plural(count: number, one: string): string {
  return `${count} ${one}${count === 1 ? '' : 's'}`;
}

/** A day as an `<input type="date">` writes it, in the reader's time zone. */
function dayText(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function daysAhead(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return dayText(date);
}

// Names of the assets findings are on, kept for the tab's life: a list shows names, not ids.
const assetNames = new Map<string, string>();

/** The names of these assets, read once each; an id stands in until its name is known. */
export function useAssetNames(ids: string[]): Map<string, string> {
  const [, setTick] = useState(0);
  const distinct = [...new Set(ids)].sort();
  useEffect(() => {
    const missing = distinct.filter((id) => !assetNames.has(id));
    if (missing.length === 0) return;
    let live = true;
    void Promise.all(
      missing.map((id) =>
        get<Asset>(`/api/assets/${encodeURIComponent(id)}`).then(
          (asset) => void assetNames.set(id, asset.name),
          () => undefined,
        ),
      ),
    ).then(() => live && setTick((tick) => tick + 1));
    return () => {
      live = false;
    };
  }, [distinct.join('\n')]);
  return assetNames;
}

/** Where a finding stands, in words: its status, until when, why, and who said so. */
function FindingStatusCell({ finding }: { finding: Finding }) {
  const by = finding.triagedBy?.email ?? finding.triagedBy?.userId;
  return (
    <>
      <span class={`status status-${finding.status}`}>{STATUS_LABELS[finding.status]}</span>
      {finding.status === 'accepted' && finding.acceptedUntil && (
        <>
          {' '}
          until <DateText value={finding.acceptedUntil} />
        </>
      )}
      {finding.status === 'fixed' && finding.fixedAt && (
        <>
          {' '}
          on <DateText value={finding.fixedAt} />
        </>
      )}
      {finding.reopenCount > 0 && (
        <>
          {' '}
          <span class="tag" title={`last reopened ${finding.reopenedAt ?? ''}`}>
            reopened {finding.reopenCount}×
          </span>
        </>
      )}
      {finding.reason && (
        <p class="finding-reason">
          “{finding.reason}”{by ? ` (${by})` : ''}
        </p>
      )}
    </>
  );
}

const SORTABLE: Record<string, string> = {
  severity: 'score',
  firstSeenAt: 'firstSeenAt',
  lastSeenAt: 'lastSeenAt',
  dueAt: 'dueAt',
};

function SortHeader({
  column,
  label,
  sort,
  onSort,
  className,
}: {
  column: string;
  label: string;
  sort?: string;
  onSort?: (key: string) => void;
  className?: string;
}) {
  const key = SORTABLE[column];
  if (!key || !sort || !onSort) {
    return (
      <th scope="col" class={className}>
        {label}
      </th>
    );
  }
  const direction = sort === key ? 'ascending' : sort === `-${key}` ? 'descending' : undefined;
  return (
    <th scope="col" class={className} aria-sort={direction}>
      <button type="button" class="sort" onClick={() => onSort(key)}>
        {label}
        <span aria-hidden="true">
          {direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ''}
        </span>
      </button>
    </th>
  );
}

/**
 * The one or several findings chosen, triaged alike: one PATCH each, in turn. Those the API
 * refuses stay chosen, with its reasons.
 */
function TriageForm({
  targets,
  describe,
  onApplied,
  onCancel,
}: {
  targets: Finding[];
  describe: (finding: Finding) => string;
  onApplied: (done: Finding[], message: string) => void;
  onCancel: () => void;
}) {
  const [decision, setDecision] = useState<Decision>('false_positive');
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState('');
  const [busy, setBusy] = useState(false);
  const [failures, setFailures] = useState<{ finding: Finding; error: unknown }[]>([]);
  const first = useRef<HTMLSelectElement>(null);
  useEffect(() => first.current?.focus(), []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailures([]);
    const body: Triage =
      decision === 'open'
        ? { status: 'open' }
        : decision === 'accepted'
          ? {
              status: 'accepted',
              reason,
              // The end of the day chosen, in the reader's time zone.
              acceptedUntil: new Date(`${until}T23:59:59`).toISOString(),
            }
          : { status: 'false_positive', reason };
    const done: Finding[] = [];
    const failed: { finding: Finding; error: unknown }[] = [];
    for (const finding of targets) {
      try {
        done.push(await patch<Finding>(`/api/findings/${encodeURIComponent(finding.id)}`, body));
      } catch (error) {
        failed.push({ finding, error });
      }
    }
    setBusy(false);
    setFailures(failed);
    const count = plural(done.length, 'finding');
    const message =
      done.length === 0
        ? ''
        : decision === 'false_positive'
          ? `Marked ${count} as false positive.`
          : decision === 'accepted'
            ? `Accepted the risk of ${count} until ${new Date(`${until}T00:00`).toLocaleDateString()}.`
            : `Opened ${count} again.`;
    onApplied(done, message);
  };

  const title =
    targets.length === 1 ? `Triage ${describe(targets[0])}` : `Triage ${targets.length} findings`;
  return (
    <form class="card triage-form" onSubmit={(event) => void submit(event)}>
      <fieldset disabled={busy}>
        <legend>{title}</legend>
        <div class="triage-fields">
          <Field label="Decision">
            <select
              ref={first}
              name="status"
              value={decision}
              onChange={(event) => setDecision(event.currentTarget.value as Decision)}
            >
              {DECISIONS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          {decision === 'accepted' && (
            <Field label="Accepted until" hint="at most a year ahead">
              <input
                type="date"
                name="acceptedUntil"
                required
                min={daysAhead(0)}
                max={daysAhead(365)}
                value={until}
                onInput={(event) => setUntil(event.currentTarget.value)}
              />
            </Field>
          )}
        </div>
        {decision !== 'open' && (
          <Field label="Reason" hint="kept with the finding, up to 1,000 characters">
            <textarea
              name="reason"
              required
              maxLength={1000}
              rows={2}
              value={reason}
              onInput={(event) => setReason(event.currentTarget.value)}
            />
          </Field>
        )}
        {failures.length > 0 && (
          <div class="error" role="alert">
            <p class="triage-failed">
              {plural(failures.length, 'finding')} could not be triaged (still selected):
            </p>
            <ul>
              {failures.map(({ finding, error }) => (
                <li key={finding.id}>
                  {describe(finding)}: {messageOf(error)}
                </li>
              ))}
            </ul>
          </div>
        )}
        <div class="actions">
          <button type="submit">{busy ? 'Applying…' : 'Apply'}</button>
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </fieldset>
    </form>
  );
}

/**
 * Findings in a table: severity, vulnerability, status (with the triage's reason), when first and
 * last seen, when due. `canTriage`: a checkbox a row and a Triage button, for one finding or the
 * ones checked; `onTriaged` is called after a triage, to read the list again.
 */
export function FindingTable({
  findings,
  loading = false,
  caption,
  names,
  canTriage,
  onTriaged,
  sort,
  onSort,
}: {
  findings: Finding[];
  loading?: boolean;
  caption: string;
  /** Asset names by id: given, the table has an Asset column. */
  names?: Map<string, string>;
  canTriage: boolean;
  onTriaged: () => void;
  sort?: string;
  onSort?: (key: string) => void;
}) {
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [triaging, setTriaging] = useState(false);
  const [message, setMessage] = useState('');

  // A fixed finding cannot be triaged; a chosen one no longer listed is no longer chosen.
  const open = findings.filter((finding) => finding.status !== 'fixed');
  const selected = open.filter((finding) => chosen.has(finding.id));
  const describe = (finding: Finding) =>
    names
      ? `${finding.vulnId} on ${names.get(finding.assetId) ?? finding.assetId}`
      : finding.vulnId;
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    setChosen(next);
  };
  const allChosen = open.length > 0 && selected.length === open.length;
  // No checkboxes nor Triage buttons in a table of fixed findings only.
  const triage = canTriage && open.length > 0;

  const columns: [string, string, string?][] = [
    ['severity', 'Severity'],
    ['vulnerability', 'Vulnerability'],
    ...(names ? [['asset', 'Asset'] as [string, string]] : []),
    ['status', 'Status'],
    ['sources', 'Reported by', 'wide'],
    ['firstSeenAt', 'First seen', 'wide'],
    ['lastSeenAt', 'Last seen', 'wide'],
    ['dueAt', 'Due'],
  ];

  return (
    <>
      {triage && (
        <div class="row-actions finding-tools">
          <button
            type="button"
            class="secondary"
            disabled={selected.length === 0 || triaging}
            onClick={() => {
              setMessage('');
              setTriaging(true);
            }}
          >
            Triage selected ({selected.length})
          </button>
        </div>
      )}
      <p class="notice" role="status" hidden={message === ''}>
        {message}
      </p>
      {triaging && selected.length > 0 && (
        <TriageForm
          targets={selected}
          describe={describe}
          onCancel={() => setTriaging(false)}
          onApplied={(done, words) => {
            const next = new Set(chosen);
            for (const finding of done) next.delete(finding.id);
            setChosen(next);
            setMessage(words);
            // All done: the form closes; refusals keep it open, beside their reasons.
            if (done.length === selected.length) setTriaging(false);
            if (done.length > 0) onTriaged();
          }}
        />
      )}
      <div class="table-wrap">
        <table class="findings" aria-busy={loading}>
          <caption class="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {triage && (
                <th scope="col">
                  <input
                    type="checkbox"
                    aria-label="Select every finding shown"
                    disabled={open.length === 0}
                    checked={allChosen}
                    onChange={(event) =>
                      setChosen(
                        event.currentTarget.checked
                          ? new Set(open.map((finding) => finding.id))
                          : new Set(),
                      )
                    }
                  />
                </th>
              )}
              {columns.map(([column, label, className]) => (
                <SortHeader
                  key={column}
                  column={column}
                  label={label}
                  sort={sort}
                  onSort={onSort}
                  className={className}
                />
              ))}
              {triage && (
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {findings.map((finding) => (
              <tr key={finding.id} class={finding.overdue ? 'overdue-row' : undefined}>
                {triage && (
                  <td>
                    {finding.status !== 'fixed' && (
                      <input
                        type="checkbox"
                        aria-label={`Select ${describe(finding)}`}
                        checked={chosen.has(finding.id)}
                        onChange={(event) => toggle(finding.id, event.currentTarget.checked)}
                      />
                    )}
                  </td>
                )}
                <td class="nowrap">
                  <SeverityBadge severity={finding.severity} score={finding.score} />
                </td>
                <td>
                  <span class="mono vuln-id">{finding.vulnId}</span>
                  {finding.summary && <p class="finding-summary">{finding.summary}</p>}
                </td>
                {names && (
                  <td>
                    <a href={`/assets/${encodeURIComponent(finding.assetId)}`}>
                      {names.get(finding.assetId) ?? finding.assetId}
                    </a>
                  </td>
                )}
                <td>
                  <FindingStatusCell finding={finding} />
                </td>
                <td class="wide">{finding.sources.join(', ') || '—'}</td>
                <td class="wide">
                  <DateText value={finding.firstSeenAt} />
                </td>
                <td class="wide">
                  <DateText value={finding.lastSeenAt} />
                </td>
                <td class="nowrap">
                  <DateText value={finding.dueAt} />
                  {finding.overdue && (
                    <>
                      {' '}
                      <span class="tag overdue">overdue</span>
                    </>
                  )}
                </td>
                {triage && (
                  <td>
                    {finding.status !== 'fixed' && (
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => {
                          setChosen(new Set([finding.id]));
                          setMessage('');
                          setTriaging(true);
                        }}
                      >
                        Triage<span class="visually-hidden"> {describe(finding)}</span>
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/**
 * An asset's findings: those open or accepted in a table, the fixed and false positive ones
 * folded below. `version` moves when the asset was saved (its vulnerabilities may have changed).
 */
export function AssetFindings({
  assetId,
  canTriage,
  version,
}: {
  assetId: string;
  canTriage: boolean;
  version: number;
}) {
  const list = useAsync(async () => {
    const answer = await request<Finding[]>(
      'GET',
      `/api/assets/${encodeURIComponent(assetId)}/findings${query({ sort: '-score', limit: ASSET_LIMIT })}`,
    );
    return {
      findings: answer.body,
      total: Number(answer.headers.get('x-total-count') ?? answer.body.length),
    };
  }, [assetId, version]);

  if (list.error) return <ErrorMessage error={list.error} />;
  if (!list.data) return <p class="loading">Loading…</p>;
  const { findings, total } = list.data;
  const active = findings.filter(
    (finding) => finding.status === 'open' || finding.status === 'accepted',
  );
  const folded = findings.filter(
    (finding) => finding.status === 'fixed' || finding.status === 'false_positive',
  );
  const overdue = active.filter((finding) => finding.overdue).length;

  return (
    <>
      <p class="summary" aria-live="polite">
        {findings.length === 0
          ? 'No vulnerabilities recorded.'
          : active.length === 0
            ? 'No open or accepted findings.'
            : `${plural(active.length, 'open or accepted finding')}${overdue > 0 ? `, ${overdue} overdue` : ''}, highest score first`}
        {total > findings.length && ` (the ${findings.length} highest scored of ${total})`}
      </p>
      {active.length > 0 && (
        <FindingTable
          findings={active}
          loading={list.loading}
          caption="Open and accepted findings, highest score first"
          canTriage={canTriage}
          onTriaged={list.reload}
        />
      )}
      {folded.length > 0 && (
        <details class="folded">
          <summary>Fixed and false positives ({folded.length})</summary>
          <FindingTable
            findings={folded}
            loading={list.loading}
            caption="Fixed and false positive findings"
            canTriage={canTriage}
            onTriaged={list.reload}
          />
        </details>
      )}
    </>
  );
}
