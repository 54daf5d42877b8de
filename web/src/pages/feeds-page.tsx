import { useState } from 'preact/hooks';
import { enc, get, put, type Feed, type User } from '../api';
import { ErrorMessage, formatTime, useAsync, useTitle } from '../ui';

/** A cadence in seconds as a person reads it. */
function cadenceText(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds % 86_400 === 0) return `every ${seconds / 86_400} d`;
  if (seconds % 3600 === 0) return `every ${seconds / 3600} h`;
  return `every ${Math.round(seconds / 60)} min`;
}

export function FeedsPage({ user }: { user: User }) {
  useTitle('Feeds');
  const feeds = useAsync(() => get<Feed[]>('/api/sources'), []);
  const [error, setError] = useState<unknown>(null);

  const setCadence = async (feed: Feed) => {
    const given = prompt(
      `Hours between successful runs of ${feed.name} (empty: no expectation)`,
      feed.expectedEverySeconds === null ? '' : String(feed.expectedEverySeconds / 3600),
    );
    if (given === null) return;
    setError(null);
    try {
      const hours = given.trim() === '' ? null : Number(given);
      await put(`/api/sources/${enc(feed.name)}`, {
        expectedEverySeconds: hours === null ? null : Math.round(hours * 3600),
      });
      feeds.reload();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Feeds</h1>
      <p class="summary">
        Every source an ingestion run named. A feed is late when its last successful run is older
        than its expected cadence.
      </p>
      <ErrorMessage error={error ?? feeds.error} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Feed</th>
              <th scope="col">Assets</th>
              <th scope="col">Last run</th>
              <th scope="col">Last success</th>
              <th scope="col">Expected</th>
              {user.role === 'admin' && (
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {(feeds.data ?? []).map((feed) => (
              <tr key={feed.name}>
                <td>
                  <a href={`/runs?source=${enc(feed.name)}`}>{feed.name}</a>
                  {feed.late && <span class="tag overdue">late</span>}
                </td>
                <td>{feed.assets}</td>
                <td>
                  {formatTime(feed.lastRunAt)}{' '}
                  {feed.lastStatus && (
                    <span class={`status status-${feed.lastStatus}`}>{feed.lastStatus}</span>
                  )}
                </td>
                <td>{formatTime(feed.lastSucceededAt)}</td>
                <td>{cadenceText(feed.expectedEverySeconds)}</td>
                {user.role === 'admin' && (
                  <td>
                    <button type="button" class="secondary" onClick={() => void setCadence(feed)}>
                      Set cadence<span class="visually-hidden"> of {feed.name}</span>
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {feeds.data?.length === 0 && <p class="notice">No ingestion run has named a source yet.</p>}
    </>
  );
}
