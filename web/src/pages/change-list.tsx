import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, messageOf, query, request, type Change } from '../api';
import { formatTime } from '../ui';

const PAGE_SIZE = 50;
// A long list (a run's services, a diagram's nodes) is cut after this many items.
const MAX_ITEMS = 8;
const MAX_TEXT = 120;
const ACTIONS = { create: 'Created', update: 'Updated', delete: 'Deleted' } as const;
const OBJECT_NAMES: Record<string, string> = {
  asset: 'asset',
  relation: 'relation',
  diagram: 'diagram',
  user: 'user',
  apiKey: 'API key',
  finding: 'finding',
};
// Bookkeeping a create or delete summary leaves out: the record's own time says when.
const NOT_SUMMARISED = new Set(['id', 'createdAt', 'updatedAt', 'firstSeenAt', 'lastSeenAt']);

type Json = Record<string, unknown>;

function cut(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

/** One item of a list: a vulnerability by its id and score, a service by port and protocol. */
function itemText(item: unknown): string {
  if (item === null || typeof item !== 'object') return String(item);
  const one = item as Json;
  if (typeof one.port === 'number') {
    const product = [one.product, one.version].filter((part) => typeof part === 'string');
    return `${one.port}/${String(one.protocol)}${product.length ? ` ${product.join(' ')}` : ''}`;
  }
  if (typeof one.id === 'string') {
    return typeof one.score === 'number' ? `${one.id} (${one.score})` : one.id;
  }
  if (typeof one.assetId === 'string') return one.assetId;
  if (typeof one.relationId === 'string') return one.relationId;
  return JSON.stringify(item);
}

/** A field's value in words, short enough for a table cell. */
function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return cut(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    const shown = value.slice(0, MAX_ITEMS).map(itemText).join(', ');
    return value.length > MAX_ITEMS ? `${shown} and ${value.length - MAX_ITEMS} more` : shown;
  }
  if (typeof value === 'object') {
    // A diagram's content: its lists counted.
    return Object.entries(value as Json)
      .map(([key, inner]) =>
        Array.isArray(inner) ? `${inner.length} ${key}` : `${key} ${show(inner)}`,
      )
      .join(', ');
  }
  return JSON.stringify(value) ?? '—';
}

/** What a create made or a delete removed, in one line of its set fields. */
function Summary({ object }: { object: Json }) {
  const parts = Object.entries(object).filter(([key, value]) => {
    if (NOT_SUMMARISED.has(key) || value === null || value === undefined || value === '')
      return false;
    return !Array.isArray(value) || value.length > 0;
  });
  if (parts.length === 0) return <p class="change-summary">no fields set</p>;
  return (
    <p class="change-summary">
      {parts.map(([key, value], index) => (
        <span key={key}>
          {index > 0 && ' · '}
          {Array.isArray(value) &&
          value.some((item) => item !== null && typeof item === 'object') ? (
            `${value.length} ${key}`
          ) : (
            <>
              <span class="mono">{key}</span> {show(value)}
            </>
          )}
        </span>
      ))}
    </p>
  );
}

/**
 * The object named as a person would: an asset by its name, a relation by its ends, a finding by
 * its vulnerability and asset.
 */
function objectName(change: Change): string | null {
  const object = (change.after ?? change.before ?? {}) as Json;
  if (typeof object.vulnId === 'string') {
    return typeof object.assetId === 'string'
      ? `${object.vulnId} on ${object.assetId}`
      : object.vulnId;
  }
  if (typeof object.sourceAssetId === 'string' && typeof object.targetAssetId === 'string') {
    const arrow = object.direction === 'bi' ? '↔' : '→';
    return `${object.sourceAssetId} ${arrow} ${object.targetAssetId}`;
  }
  for (const key of ['name', 'email']) {
    if (typeof object[key] === 'string') return object[key];
  }
  return null;
}

function ObjectLink({ change }: { change: Change }) {
  const name = objectName(change);
  const label = name ?? change.objectId;
  // A deleted object has no page to go to.
  if (change.action !== 'delete' && change.objectType === 'asset') {
    return <a href={`/assets/${encodeURIComponent(change.objectId)}`}>{label}</a>;
  }
  if (change.action !== 'delete' && change.objectType === 'diagram') {
    return <a href={`/map${query({ diagram: change.objectId })}`}>{label}</a>;
  }
  return name ? <span>{name}</span> : <span class="mono">{change.objectId}</span>;
}

function who(change: Change): string {
  const person = change.actor.email ?? change.actor.userId ?? 'someone unknown';
  return change.actor.apiKeyPrefix ? `${person} (API key ${change.actor.apiKeyPrefix}…)` : person;
}

/** What each change did: an update field by field, before and after; a create or delete summed up. */
export function ChangeList({
  changes,
  showObject,
  showRun = true,
}: {
  changes: Change[];
  showObject?: boolean;
  showRun?: boolean;
}) {
  return (
    <ol class="changes">
      {changes.map((change) => {
        const fields = Object.keys({ ...(change.before ?? {}), ...(change.after ?? {}) });
        const whole = change.action === 'create' ? change.after : change.before;
        return (
          <li key={change.id} class={`change change-${change.action}`}>
            <p class="change-head">
              <strong class="change-action">{ACTIONS[change.action] ?? change.action}</strong>
              {showObject && (
                <>
                  {' '}
                  {OBJECT_NAMES[change.objectType] ?? change.objectType}{' '}
                  <ObjectLink change={change} />
                </>
              )}{' '}
              <span class="change-meta">
                <time dateTime={change.time}>{formatTime(change.time)}</time> by {who(change)}
                {showRun && change.runId && (
                  <>
                    {', '}
                    in <a href={`/runs/${encodeURIComponent(change.runId)}`}>an ingestion run</a>
                  </>
                )}
              </span>
            </p>
            {change.action === 'update' && fields.length > 0 && (
              <div class="table-wrap">
                <table class="diff">
                  <thead>
                    <tr>
                      <th scope="col">Field</th>
                      <th scope="col">Before</th>
                      <th scope="col" class="arrow" aria-hidden="true"></th>
                      <th scope="col">After</th>
                    </tr>
                  </thead>
                  <tbody>
                    {fields.map((field) => (
                      <tr key={field}>
                        <th scope="row" class="mono">
                          {field}
                        </th>
                        <td class="before">{show(change.before?.[field])}</td>
                        <td class="arrow" aria-hidden="true">
                          →
                        </td>
                        <td class="after">{show(change.after?.[field])}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {change.action !== 'update' && whole && <Summary object={whole} />}
          </li>
        );
      })}
    </ol>
  );
}

/** A failure to load a change list, in words. */
function ChangesError({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.status === 403) {
    return (
      <p class="notice" role="alert">
        Only administrators may read this change list ({error.message}).
      </p>
    );
  }
  return (
    <p class="error" role="alert">
      The change history could not be loaded: {messageOf(error)}
    </p>
  );
}

interface Loaded {
  changes: Change[];
  total: number;
}

/**
 * A change list read from `path` (filtered by `filter`), newest first, a page at a time; read
 * again whenever `version` moves (after an edit on the same page). `showRun` false: the list is
 * a run's own, its link would lead back to the same page. `quietWhenMissing`: nothing, not
 * even `heading`, until a history is loaded; an id nothing was ever recorded for (a 404) says
 * nothing more, the page says it is missing already.
 */
export function ChangeHistory({
  path,
  filter = {},
  version = 0,
  showObject,
  showRun,
  quietWhenMissing,
  heading,
}: {
  path: string;
  filter?: Record<string, string>;
  version?: number;
  showObject?: boolean;
  showRun?: boolean;
  quietWhenMissing?: boolean;
  heading?: ComponentChildren;
}) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);
  const filterKey = JSON.stringify(filter);

  const load = async (offset: number, before: Change[]) => {
    const call = ++latest.current;
    setLoading(true);
    try {
      const answer = await request<Change[]>(
        'GET',
        `${path}${query({ ...filter, limit: PAGE_SIZE, offset })}`,
      );
      if (call !== latest.current) return;
      // A change written between two pages pushes the older ones down: none is shown twice.
      const seen = new Set(before.map((change) => change.id));
      const changes = [...before, ...answer.body.filter((change) => !seen.has(change.id))];
      const total = Number(answer.headers.get('x-total-count') ?? changes.length);
      setLoaded({ changes, total });
      setError(null);
    } catch (failure) {
      if (call === latest.current) setError(failure);
    } finally {
      if (call === latest.current) setLoading(false);
    }
  };

  useEffect(() => {
    setLoaded(null);
    void load(0, []);
  }, [path, filterKey, version]);

  // Nothing at all (not even the heading) until there is a history to show.
  if (quietWhenMissing && !loaded) return null;
  return (
    <>
      {heading}
      {loaded && (
        <p class="summary" aria-live="polite">
          {loaded.total === 0
            ? 'No changes recorded.'
            : loaded.total === 1
              ? '1 change'
              : loaded.changes.length < loaded.total
                ? `The newest ${loaded.changes.length} of ${loaded.total} changes`
                : `${loaded.total} changes, newest first`}
        </p>
      )}
      {!loaded && loading && <p class="loading">Loading…</p>}
      {loaded && loaded.changes.length > 0 && (
        <ChangeList changes={loaded.changes} showObject={showObject} showRun={showRun} />
      )}
      {error !== null && <ChangesError error={error} />}
      {loaded && loaded.changes.length < loaded.total && (
        <button
          type="button"
          class="secondary"
          disabled={loading}
          onClick={() => void load(loaded.changes.length, loaded.changes)}
        >
          {loading ? 'Loading…' : 'Show older changes'}
        </button>
      )}
    </>
  );
}
