import { useState } from 'preact/hooks';
import { get, query, request, type Run, type User } from '../api';
import { ErrorMessage, Field, Pager, formatTime, useAsync, useTitle } from '../ui';
import { ChangeHistory } from './change-list';

const PAGE_SIZE = 50;
const STATUSES = ['', 'running', 'succeeded', 'rejected', 'failed'];

function actorText(run: Run): string {
  const who = run.actor.email ?? run.actor.userId ?? 'unknown';
  return run.actor.apiKeyPrefix ? `${who} (API key ${run.actor.apiKeyPrefix}…)` : who;
}

function statsText(stats: Run['stats']): string {
  if (!stats) return '—';
  const parts = [
    ['assetsCreated', 'created'],
    ['assetsUpdated', 'updated'],
    ['assetsUnchanged', 'unchanged'],
    ['assetsDeleted', 'deleted'],
  ]
    .filter(([key]) => typeof stats[key] === 'number')
    .map(([key, label]) => `${stats[key]} ${label}`);
  return `${parts.join(', ')}${stats.duration ? ` in ${stats.duration}` : ''}`;
}

export function RunsPage() {
  useTitle('Ingestion runs');
  // A link may name the source (the feeds page's).
  const linked = new URLSearchParams(location.search).get('source') ?? '';
  const [status, setStatus] = useState('');
  const [source, setSource] = useState(linked);
  const [filter, setFilter] = useState({ status: '', source: linked });
  const [page, setPage] = useState(1);
  const runs = useAsync(async () => {
    const answer = await request<Run[]>(
      'GET',
      `/api/integrations/runs${query({ ...filter, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE })}`,
    );
    return {
      runs: answer.body,
      total: Number(answer.headers.get('x-total-count') ?? answer.body.length),
    };
  }, [filter.status, filter.source, page]);
  const pages = Math.max(1, Math.ceil((runs.data?.total ?? 0) / PAGE_SIZE));

  return (
    <>
      <h1 tabIndex={-1}>Ingestion runs</h1>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setPage(1);
          setFilter({ status, source });
        }}
      >
        <Field label="Status">
          <select value={status} onChange={(event) => setStatus(event.currentTarget.value)}>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value === '' ? 'any' : value}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Source">
          <input value={source} onInput={(event) => setSource(event.currentTarget.value)} />
        </Field>
        <div class="filter-actions">
          <button type="submit">Filter</button>
        </div>
      </form>
      <ErrorMessage error={runs.error} />
      <p class="summary" aria-live="polite">
        {runs.loading ? 'Loading…' : `${runs.data?.total ?? 0} runs, newest first`}
      </p>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Status</th>
              <th scope="col">Source</th>
              <th scope="col">Format / mode</th>
              <th scope="col">Actor</th>
              <th scope="col">Assets</th>
            </tr>
          </thead>
          <tbody>
            {(runs.data?.runs ?? []).map((run) => (
              <tr key={run.id}>
                <td>
                  <a href={`/runs/${encodeURIComponent(run.id)}`}>{formatTime(run.startedAt)}</a>
                </td>
                <td>
                  <span class={`status status-${run.status}`}>{run.status}</span>
                  {run.dryRun && <span class="tag">dry run</span>}
                </td>
                <td>{run.source ?? '—'}</td>
                <td>
                  {run.format} / {run.mode}
                </td>
                <td>{actorText(run)}</td>
                <td>
                  {run.error ? <span class="error-text">{run.error}</span> : statsText(run.stats)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={page} pages={pages} onPage={setPage} />
    </>
  );
}

export function RunPage({ id, user }: { id: string; user: User }) {
  useTitle('Ingestion run');
  const run = useAsync(() => get<Run>(`/api/integrations/runs/${encodeURIComponent(id)}`), [id]);
  return (
    <>
      <p class="crumbs">
        <a href="/runs">Ingestion runs</a> ›
      </p>
      <h1 tabIndex={-1}>Ingestion run</h1>
      <ErrorMessage error={run.error} />
      {run.data && (
        <dl class="fields">
          {(
            [
              ['Id', run.data.id],
              ['Status', run.data.status + (run.data.dryRun ? ' (dry run)' : '')],
              ['Source', run.data.source ?? '—'],
              ['Format', run.data.format],
              ['Mode', run.data.mode + (run.data.deleteStale ? ', deleting stale assets' : '')],
              ['Actor', actorText(run.data)],
              ['Request id', run.data.requestId],
              ['Body', `${run.data.bodyBytes} bytes`],
              ['Started', formatTime(run.data.startedAt)],
              ['Finished', formatTime(run.data.finishedAt)],
              ['Error', run.data.error ?? '—'],
            ] as const
          ).map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {run.data?.stats && (
        <section aria-labelledby="stats">
          <h2 id="stats">Stats</h2>
          <dl class="fields">
            {Object.entries(run.data.stats).map(([key, value]) => (
              <div key={key}>
                <dt>{key}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      <section aria-labelledby="run-changes">
        <h2 id="run-changes">Changes</h2>
        {user.role !== 'admin' ? (
          <p class="notice">The change list of a run is shown to administrators.</p>
        ) : (
          // The change list of a run is the admin's change log filtered by the run.
          <ChangeHistory path="/api/changes" filter={{ runId: id }} showObject showRun={false} />
        )}
      </section>
    </>
  );
}
