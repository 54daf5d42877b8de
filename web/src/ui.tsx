import { cloneElement, isValidElement, type ComponentChildren } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { download, messageOf, query, type Severity } from './api';

/** An API error (or any failure) in words, announced to screen readers. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  return (
    <p class="error" role="alert">
      {messageOf(error)}
    </p>
  );
}

export function riskLevel(score: number | null): 'none' | 'low' | 'medium' | 'high' {
  if (score === null) return 'none';
  if (score >= 70) return 'high';
  if (score >= 40) return 'medium';
  return 'low';
}

/** The risk as a coloured badge with its number and level in words (colour is never alone). */
export function RiskBadge({ score, label }: { score: number | null; label?: string }) {
  const level = riskLevel(score);
  return (
    <span class={`risk risk-${level}`} title={`risk ${level}`}>
      {label ?? (score === null ? '—' : score)}
      <span class="visually-hidden"> ({level === 'none' ? 'no risk score' : `${level} risk`})</span>
    </span>
  );
}

/** A vulnerability's severity as a coloured badge in words, with its CVSS score beside it. */
export function SeverityBadge({ severity, score }: { severity: Severity; score: number | null }) {
  return (
    <>
      <span class={`severity severity-${severity}`}>{severity}</span>
      <span class="score">{score === null ? '—' : score}</span>
    </>
  );
}

export interface Async<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `deps` change; a late answer to an older request is dropped. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): Async<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const call = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => call === latest.current && setState({ data, error: null, loading: false }),
      (error: unknown) =>
        call === latest.current && setState({ data: null, error, loading: false }),
    );
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { ...state, reload };
}

export function formatTime(value: string | null): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

/** A day in the reader's own format; the full time is its tooltip. */
export function DateText({ value }: { value: string | null }) {
  if (!value) return <>—</>;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <>{value}</>;
  return (
    <time dateTime={value} title={date.toLocaleString()}>
      {date.toLocaleDateString()}
    </time>
  );
}

export function Field({
  label,
  children,
  hint,
}: {
  label: string;
  children: ComponentChildren;
  hint?: string;
}) {
  // The label names the input (for=id) and the hint describes it, read after the name.
  const id = useId();
  const control = isValidElement(children)
    ? cloneElement(children, { id, 'aria-describedby': hint ? `${id}-hint` : undefined })
    : children;
  return (
    <div class="field">
      <label class="field-label" for={id}>
        {label}
      </label>
      {control}
      {hint && (
        <span class="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
    </div>
  );
}

export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Asset Map`;
  }, [title]);
}

/** A list's Previous and Next, with where it stands: `onPage` gets the page asked for. */
export function Pager({
  page,
  pages,
  onPage,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
}) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button
        type="button"
        class="secondary"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}

/**
 * Downloads the export of a list (`path`, such as `/api/assets/export`) with the list's
 * filters and sort, in the format chosen: CSV or NDJSON.
 */
export function ExportButton({
  path,
  name,
  params,
}: {
  path: string;
  name: string;
  params: Record<string, string | string[]>;
}) {
  const [format, setFormat] = useState<'csv' | 'ndjson'>('csv');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await download(`${path}${query({ ...params, format })}`, `${name}.${format}`);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="export">
      <label>
        <span class="visually-hidden">Export format</span>
        <select
          name="format"
          value={format}
          onChange={(event) => setFormat(event.currentTarget.value as 'csv' | 'ndjson')}
        >
          <option value="csv">CSV</option>
          <option value="ndjson">NDJSON</option>
        </select>
      </label>
      <button type="button" class="secondary" disabled={busy} onClick={() => void run()}>
        {busy ? 'Exporting…' : 'Export'}
      </button>
      <ErrorMessage error={error} />
    </div>
  );
}
