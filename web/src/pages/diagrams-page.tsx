import { useState } from 'preact/hooks';
import { del, put, request, type Diagram, type User } from '../api';
import { ErrorMessage, formatTime, useAsync, useTitle } from '../ui';

export function DiagramsPage({ user }: { user: User }) {
  useTitle('Diagrams');
  const diagrams = useAsync(
    async () => (await request<Diagram[]>('GET', '/api/diagrams')).body,
    [],
  );
  const [error, setError] = useState<unknown>(null);

  const act = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
      diagrams.reload();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>Diagrams</h1>
        {user.role !== 'viewer' && (
          <a class="button" href="/map">
            New diagram on the map
          </a>
        )}
      </div>
      <p>
        Saved map layouts. Public ones are seen by every signed-in user; private ones by their owner
        and administrators.
      </p>
      <ErrorMessage error={error ?? diagrams.error} />
      {diagrams.data?.length === 0 && <p>No diagrams yet.</p>}
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">Visibility</th>
              <th scope="col">Updated</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(diagrams.data ?? []).map((diagram) => {
              const mine = diagram.ownerId === user.id || user.role === 'admin';
              const other = diagram.visibility === 'public' ? 'private' : 'public';
              return (
                <tr key={diagram.id}>
                  <td>
                    <a href={`/map?diagram=${encodeURIComponent(diagram.id)}`}>{diagram.name}</a>
                  </td>
                  <td>{diagram.description ?? ''}</td>
                  <td>{diagram.visibility}</td>
                  <td>{formatTime(diagram.updatedAt)}</td>
                  <td class="row-actions">
                    {mine && (
                      <>
                        <button
                          type="button"
                          class="secondary"
                          onClick={() =>
                            void act(() =>
                              put(`/api/diagrams/${encodeURIComponent(diagram.id)}`, {
                                visibility: other,
                              }),
                            )
                          }
                        >
                          Make {other}
                          <span class="visually-hidden"> {diagram.name}</span>
                        </button>
                        <button
                          type="button"
                          class="danger"
                          onClick={() => {
                            if (confirm(`Delete the diagram ${diagram.name}?`)) {
                              void act(() =>
                                del(`/api/diagrams/${encodeURIComponent(diagram.id)}`),
                              );
                            }
                          }}
                        >
                          Delete<span class="visually-hidden"> {diagram.name}</span>
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
