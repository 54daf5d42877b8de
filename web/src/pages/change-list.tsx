import { ApiError, type Change } from '../api';
import { ErrorMessage, formatTime } from '../ui';

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** What each change did, field by field; the object's own page link when it still makes sense. */
export function ChangeList({ changes, showObject }: { changes: Change[]; showObject?: boolean }) {
  if (changes.length === 0) return <p>No changes recorded.</p>;
  return (
    <ol class="changes">
      {changes.map((change) => {
        const fields = Object.keys({ ...(change.before ?? {}), ...(change.after ?? {}) });
        return (
          <li key={change.id}>
            <p>
              <strong>{change.action}</strong>
              {showObject && (
                <>
                  {' '}
                  {change.objectType}{' '}
                  {change.objectType === 'asset' ? (
                    <a href={`/assets/${encodeURIComponent(change.objectId)}`}>{change.objectId}</a>
                  ) : (
                    <span class="mono">{change.objectId}</span>
                  )}
                </>
              )}{' '}
              <time dateTime={change.time}>{formatTime(change.time)}</time> by{' '}
              {change.actor.email ?? 'unknown'}
              {change.actor.apiKeyPrefix ? ` (API key ${change.actor.apiKeyPrefix}…)` : ''}
              {change.runId && (
                <>
                  {' '}
                  in <a href={`/runs/${encodeURIComponent(change.runId)}`}>an ingestion run</a>
                </>
              )}
            </p>
            {change.action === 'update' && fields.length > 0 && (
              <table class="diff">
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Before</th>
                    <th scope="col">After</th>
                  </tr>
                </thead>
                <tbody>
                  {fields.map((field) => (
                    <tr key={field}>
                      <th scope="row">{field}</th>
                      <td>{show(change.before?.[field])}</td>
                      <td>{show(change.after?.[field])}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** A route this service does not have (an older version) is said politely, not as an error. */
export function ChangesError({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.status === 404 && /^Cannot GET/.test(error.message)) {
    return <p class="notice">This service does not keep a change history yet.</p>;
  }
  if (error instanceof ApiError && error.status === 403) {
    return <p class="notice">Only administrators may read this change list ({error.message}).</p>;
  }
  return <ErrorMessage error={error} />;
}
