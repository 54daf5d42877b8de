import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import {
  enc,
  get,
  query,
  request,
  type Asset,
  type Feed,
  type Finding,
  type FindingSummary,
  type Run,
  type Severity,
} from '../api';
import { ErrorMessage, RiskBadge, formatTime, useAsync, useTitle, type Async } from '../ui';
import { SEVERITY_STYLES, TrendChart, type TrendDay } from './trend-chart';
import { ExposurePanel } from './exposure-panel';

const SEVERITIES: Severity[] = ['critical', 'high', 'medium', 'low', 'none'];
const RANGES = [30, 90, 365] as const;
const DAY_MS = 86_400_000;
// The mean time to fix reads the latest fixes only: the contract has no route that averages.
const FIX_SAMPLE = 500;

const findingsLink = (params: Record<string, string>) => `/findings${query(params)}`;

/**
 * The first page's requests, sent together: the summary, the trend, the feeds and the riskiest
 * assets. They give every figure of the first screen.
 */
const FIRST_PAGE_REQUESTS = 4;
/** Then, side by side, once those have answered: the last runs and the mean time to fix. */
const NEXT_REQUESTS = 2;

/** Tells `onSettled` once, when the first answer (data or error) of a panel's request is in. */
function useSettled(loading: boolean, onSettled: () => void): void {
  const told = useRef(false);
  useEffect(() => {
    if (loading || told.current) return;
    told.current = true;
    onSettled();
  }, [loading]);
}

/** A panel that reads its own data says when its first answer is in. */
interface Settles {
  onSettled: () => void;
}

/** A panel that loads after the first page: `start` is false until the first page has answered. */
interface Waits extends Settles {
  start: boolean;
}

/** `load`'s answer, asked for once `start` is true; loading until then. */
function useAsyncWhen<T>(start: boolean, load: () => Promise<T>): Async<T> {
  // A promise that never settles keeps the state loading without sending anything.
  return useAsync(() => (start ? load() : new Promise<T>(() => {})), [start]);
}

/** A count that opens the list it counts (a zero is plain text: there is nothing to open). */
function CountLink({
  href,
  count,
  words,
  hideWords = false,
}: {
  href: string;
  count: number;
  words: string;
  /** Only the number shows (a column's header says what it counts); a screen reader hears all. */
  hideWords?: boolean;
}) {
  const text = hideWords ? <span class="visually-hidden">{words}</span> : words;
  if (count === 0) {
    return <span class="count-zero">0 {text}</span>;
  }
  return (
    <a href={href}>
      <span class="count">{count}</span> {text}
    </a>
  );
}

/** Open findings by severity: the number, a bar to scale, and the overdue ones beside. */
function SeverityBars({ summary }: { summary: FindingSummary }) {
  const largest = Math.max(1, ...SEVERITIES.map((severity) => summary.open[severity]));
  return (
    <table class="severity-bars">
      <caption class="visually-hidden">Open and overdue findings by severity</caption>
      <thead>
        <tr>
          <th scope="col">Severity</th>
          <th scope="col">Open</th>
          <th scope="col" aria-hidden="true"></th>
          <th scope="col">Overdue</th>
        </tr>
      </thead>
      <tbody>
        {SEVERITIES.map((severity) => (
          <tr key={severity} data-severity={severity}>
            <th scope="row">{severity}</th>
            <td class="open-count">
              <CountLink
                href={findingsLink({ status: 'open', severity })}
                count={summary.open[severity]}
                words={`open ${severity}`}
                hideWords
              />
            </td>
            <td class="bar" aria-hidden="true">
              <svg viewBox="0 0 100 10" preserveAspectRatio="none" focusable="false">
                <rect
                  class={`bar-${severity}`}
                  width={(100 * summary.open[severity]) / largest}
                  height="10"
                />
              </svg>
            </td>
            <td class={summary.overdue[severity] > 0 ? 'overdue-count late' : 'overdue-count'}>
              <CountLink
                href={findingsLink({ overdue: 'true', severity })}
                count={summary.overdue[severity]}
                words={`overdue ${severity}`}
                hideWords
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Days between a finding's opening (its last reopening, else its first sighting) and its fix. */
function daysToFix(finding: Finding): number {
  const opened = Date.parse(finding.reopenedAt ?? finding.firstSeenAt);
  return (Date.parse(finding.fixedAt ?? '') - opened) / DAY_MS;
}

/** Mean days to fix of the findings fixed in the last 90 days (the latest FIX_SAMPLE of them). */
async function meanTimeToFix(): Promise<{ days: number | null; count: number; sampled: boolean }> {
  const answer = await request<Finding[]>(
    'GET',
    `/api/findings${query({ status: 'fixed', sort: '-fixedAt', limit: FIX_SAMPLE })}`,
  );
  const since = Date.now() - 90 * DAY_MS;
  const recent = answer.body.filter(
    (finding) => finding.fixedAt !== null && Date.parse(finding.fixedAt) >= since,
  );
  const total = Number(answer.headers.get('x-total-count') ?? answer.body.length);
  const sampled = recent.length === answer.body.length && total > answer.body.length;
  const days =
    recent.length === 0
      ? null
      : recent.reduce((sum, finding) => sum + daysToFix(finding), 0) / recent.length;
  return { days, count: recent.length, sampled };
}

function Trend({ onSettled }: Settles) {
  const [range, setRange] = useState<(typeof RANGES)[number]>(90);
  const trend = useAsync(
    () => get<TrendDay[]>(`/api/findings/trend${query({ days: range })}`),
    [range],
  );
  useSettled(trend.loading, onSettled);
  const days = trend.data ?? [];
  const shown = SEVERITIES.filter(
    (severity) => severity !== 'none' || days.some((day) => day.open.none > 0),
  );
  const last = days[days.length - 1];
  const first = days[0];
  const description =
    first && last
      ? `Open findings per day from ${first.date} to ${last.date}: ` +
        shown
          .map((severity) => `${severity} ${first.open[severity]} to ${last.open[severity]}`)
          .join(', ')
      : 'No trend yet';
  return (
    <section class="panel trend" aria-labelledby="trend-heading">
      <div class="panel-head">
        <h2 id="trend-heading">Open findings over {range} days</h2>
        <div class="range-switch" role="group" aria-label="Range">
          {RANGES.map((value) => (
            <button
              key={value}
              type="button"
              class={value === range ? undefined : 'secondary'}
              aria-pressed={value === range}
              onClick={() => setRange(value)}
            >
              {value} days
            </button>
          ))}
        </div>
      </div>
      <ErrorMessage error={trend.error} />
      {days.length > 0 && (
        <>
          <TrendChart days={days} severities={shown} label={description} />
          <ul class="legend" aria-hidden="true">
            {shown.map((severity) => (
              <li key={severity}>
                <svg viewBox="0 0 30 6" focusable="false">
                  <line
                    x1="0"
                    y1="3"
                    x2="30"
                    y2="3"
                    stroke={SEVERITY_STYLES[severity].colour}
                    stroke-width="3"
                    stroke-dasharray={SEVERITY_STYLES[severity].dash.join(' ') || undefined}
                  />
                </svg>
                {severity}
              </li>
            ))}
          </ul>
          <details>
            <summary>The trend as a table</summary>
            <div class="table-wrap">
              <table class="trend-table">
                <caption class="visually-hidden">Open findings at the end of each day</caption>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    {shown.map((severity) => (
                      <th key={severity} scope="col">
                        {severity}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {[...days].reverse().map((day) => (
                    <tr key={day.date}>
                      <th scope="row">{day.date}</th>
                      {shown.map((severity) => (
                        <td key={severity}>{day.open[severity]}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </section>
  );
}

/**
 * `summary` is null until it has answered; the mean time to fix's sample is asked for once
 * `start` is true.
 */
function Flow({ summary, start, onSettled }: { summary: FindingSummary | null } & Waits) {
  const fix = useAsyncWhen(start, meanTimeToFix);
  useSettled(fix.loading, onSettled);
  const mean = fix.data?.days;
  return (
    <section class="panel flow" aria-labelledby="flow-heading">
      <h2 id="flow-heading">Opened and fixed</h2>
      <dl class="figures">
        <div>
          <dt>First seen, last 30 days</dt>
          <dd>
            {summary ? (
              <CountLink
                href={findingsLink({ sort: '-firstSeenAt' })}
                count={summary.openedLast30Days}
                words="opened"
              />
            ) : (
              '…'
            )}
          </dd>
        </div>
        <div>
          <dt>Fixed, last 30 days</dt>
          <dd>
            {summary ? (
              <CountLink
                href={findingsLink({ status: 'fixed', sort: '-fixedAt' })}
                count={summary.fixedLast30Days}
                words="fixed"
              />
            ) : (
              '…'
            )}
          </dd>
        </div>
        <div>
          <dt>Mean time to fix, last 90 days</dt>
          <dd class="mean-time-to-fix">
            {fix.loading
              ? '…'
              : mean === null || mean === undefined
                ? 'no fixes'
                : `${mean.toFixed(1)} days`}
            {fix.data && fix.data.count > 0 && (
              <span class="hint">
                {' '}
                over {fix.data.sampled ? `the latest ${fix.data.count}` : fix.data.count} fixes
              </span>
            )}
          </dd>
        </div>
      </dl>
      <ErrorMessage error={fix.error} />
    </section>
  );
}

function Feeds({ onSettled }: Settles) {
  const feeds = useAsync(() => get<Feed[]>('/api/sources'), []);
  useSettled(feeds.loading, onSettled);
  return (
    <section class="panel feeds" aria-labelledby="feeds-heading">
      <h2 id="feeds-heading">
        <a href="/feeds">Feeds</a>
      </h2>
      <ErrorMessage error={feeds.error} />
      {feeds.data?.length === 0 && <p class="notice">No ingestion run has named a source yet.</p>}
      <ul class="plain-list">
        {(feeds.data ?? []).map((feed) => (
          <li key={feed.name}>
            <a href={`/runs${query({ source: feed.name })}`}>{feed.name}</a>
            {feed.late && <span class="tag overdue">late</span>}{' '}
            {feed.lastStatus && (
              <span class={`status status-${feed.lastStatus}`}>{feed.lastStatus}</span>
            )}{' '}
            <span class="when">{formatTime(feed.lastRunAt)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The list sorts assets without a risk score after every scored one: those are left out. */
function RiskiestAssets({ onSettled }: Settles) {
  const assets = useAsync(async () => {
    const answer = await get<{ assets: Asset[]; total: number }>(
      `/api/assets${query({ sort: '-risk_score', limit: 10 })}`,
    );
    return answer.assets.filter((asset) => asset.risk_score !== null);
  }, []);
  useSettled(assets.loading, onSettled);
  return (
    <section class="panel riskiest" aria-labelledby="riskiest-heading">
      <h2 id="riskiest-heading">
        <a href="/assets?sort=-risk_score">Riskiest assets</a>
      </h2>
      <ErrorMessage error={assets.error} />
      {assets.data?.length === 0 && <p class="notice">No asset has a risk score.</p>}
      <ol class="plain-list">
        {(assets.data ?? []).map((asset) => (
          <li key={asset.id}>
            <RiskBadge score={asset.risk_score} />{' '}
            <a href={`/assets/${enc(asset.id)}`}>{asset.name}</a>
            {asset.site && <span class="when"> {asset.site}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}

function LastRuns({ start, onSettled }: Waits) {
  const runs = useAsyncWhen(start, () =>
    get<Run[]>(`/api/integrations/runs${query({ limit: 10 })}`),
  );
  useSettled(runs.loading, onSettled);
  return (
    <section class="panel last-runs" aria-labelledby="runs-heading">
      <h2 id="runs-heading">
        <a href="/runs">Last runs</a>
      </h2>
      <ErrorMessage error={runs.error} />
      {runs.data?.length === 0 && <p class="notice">No ingestion run yet.</p>}
      <ul class="plain-list">
        {(runs.data ?? []).map((run) => (
          <li key={run.id}>
            <a href={`/runs/${enc(run.id)}`}>{formatTime(run.startedAt)}</a>{' '}
            <span class={`status status-${run.status}`}>{run.status}</span>
            {run.dryRun && <span class="tag">dry run</span>} {run.source ?? run.format}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * What a security lead looks at first: open findings by severity, their trend, the findings
 * opened and fixed, the feeds and the riskiest assets; then, once those are in, the last runs
 * and the mean time to fix; then the findings the internet reaches. Every number links to its
 * list.
 */
export function DashboardPage() {
  useTitle('Dashboard');
  const summary = useAsync(() => get<FindingSummary>('/api/findings/summary'), []);
  // The first page's four requests make the page usable: the last runs and the mean time to fix
  // wait for their answers, and the exposure panel's requests for those two's too. Those two
  // answer only once started, so six answers are all six.
  const [settled, setSettled] = useState(0);
  const settle = useCallback(() => setSettled((count) => count + 1), []);
  useSettled(summary.loading, settle);
  const firstPageIn = settled >= FIRST_PAGE_REQUESTS;
  const nextIn = settled >= FIRST_PAGE_REQUESTS + NEXT_REQUESTS;
  return (
    <>
      <h1 tabIndex={-1}>Dashboard</h1>
      <ErrorMessage error={summary.error} />
      <div class="dashboard" aria-busy={summary.loading}>
        <section class="panel severities" aria-labelledby="severities-heading">
          <h2 id="severities-heading">
            <a href="/findings?status=open">Open findings</a>
          </h2>
          {summary.data && <SeverityBars summary={summary.data} />}
        </section>
        <Flow summary={summary.data} start={firstPageIn} onSettled={settle} />
        <Trend onSettled={settle} />
        <ExposurePanel start={nextIn} />
        <Feeds onSettled={settle} />
        <RiskiestAssets onSettled={settle} />
        <LastRuns start={firstPageIn} onSettled={settle} />
      </div>
    </>
  );
}
