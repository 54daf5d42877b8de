import { useState } from 'preact/hooks';
import { del, get, post, type ApiKey } from '../api';
import { ErrorMessage, Field, formatTime, useAsync, useTitle } from '../ui';

export function ApiKeysPage() {
  useTitle('API keys');
  const keys = useAsync(() => get<ApiKey[]>('/api/auth/api-keys'), []);
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<ApiKey | null>(null);
  const [error, setError] = useState<unknown>(null);

  const create = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const body: Record<string, string> = { name };
      if (expires !== '') body.expiresAt = new Date(`${expires}T23:59:59`).toISOString();
      setCreated(await post<ApiKey>('/api/auth/api-keys', body));
      setName('');
      setExpires('');
      keys.reload();
    } catch (failure) {
      setError(failure);
    }
  };

  const revoke = async (key: ApiKey) => {
    if (!confirm(`Revoke the key ${key.name}? Scripts using it stop working at once.`)) return;
    setError(null);
    try {
      await del(`/api/auth/api-keys/${encodeURIComponent(key.id)}`);
      keys.reload();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>API keys</h1>
      <p>Keys act with your role, for scripts and CI jobs. A key is shown once, when it is made.</p>
      <form class="card inline-form" onSubmit={(event) => void create(event)}>
        <Field label="Name">
          <input
            name="name"
            required
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
          />
        </Field>
        <Field label="Expires (optional)">
          <input
            type="date"
            name="expiresAt"
            value={expires}
            onInput={(event) => setExpires(event.currentTarget.value)}
          />
        </Field>
        <button type="submit">Create key</button>
      </form>
      <ErrorMessage error={error} />
      {created?.key && (
        <div class="card new-key" role="status">
          <p>
            <strong>Copy the key {created.name} now:</strong> it will not be shown again.
          </p>
          <label class="field">
            <span class="field-label">New key</span>
            <input
              class="mono"
              readOnly
              value={created.key}
              onFocus={(event) => event.currentTarget.select()}
            />
          </label>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              void navigator.clipboard?.writeText(created.key!);
            }}
          >
            Copy
          </button>
          <button type="button" class="secondary" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      <ErrorMessage error={keys.error} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(keys.data ?? []).map((key) => (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td class="mono">{key.prefix}…</td>
                <td>{formatTime(key.createdAt)}</td>
                <td>{key.expiresAt ? formatTime(key.expiresAt) : 'never'}</td>
                <td>{key.lastUsedAt ? formatTime(key.lastUsedAt) : 'never'}</td>
                <td>
                  <button type="button" class="danger" onClick={() => void revoke(key)}>
                    Revoke<span class="visually-hidden"> {key.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
