import { useState } from 'preact/hooks';
import { del, get, post, ROLE_SCOPES, type ApiKey, type Role, type Scope } from '../api';
import { ErrorMessage, Field, formatTime, useAsync } from '../ui';

const SCOPE_HINTS: Record<Scope, string> = {
  read: 'every GET',
  write: 'change assets, relations, diagrams, triage',
  ingest: 'ingest and read runs',
  admin: 'what only admins may do',
};

/** A comma- or space-separated list, or null when empty. */
function listOrNull(text: string): string[] | null {
  const entries = text.split(/[\s,]+/).filter((entry) => entry !== '');
  return entries.length ? entries : null;
}

/**
 * The keys under `base` (the caller's own, or a user's for an admin): made with scopes bounded by
 * `role`, sources, addresses and an expiry; rotated and revoked.
 */
export function KeyManager({ base, role, label }: { base: string; role: Role; label: string }) {
  const keys = useAsync(() => get<ApiKey[]>(base), [base]);
  const allowed = ROLE_SCOPES[role];
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(allowed);
  const [sources, setSources] = useState('');
  const [cidrs, setCidrs] = useState('');
  const [created, setCreated] = useState<ApiKey | null>(null);
  const [error, setError] = useState<unknown>(null);

  const act = async (action: () => Promise<ApiKey | undefined>) => {
    setError(null);
    try {
      const answer = await action();
      if (answer?.key) setCreated(answer);
      keys.reload();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    }
  };

  const create = async (event: Event) => {
    event.preventDefault();
    const body: Record<string, unknown> = {
      name,
      scopes: allowed.filter((scope) => scopes.includes(scope)),
      sources: listOrNull(sources),
      allowedCidrs: listOrNull(cidrs),
    };
    if (expires !== '') body.expiresAt = new Date(`${expires}T23:59:59`).toISOString();
    if (await act(() => post<ApiKey>(base, body))) {
      setName('');
      setExpires('');
      setScopes(allowed);
      setSources('');
      setCidrs('');
    }
  };

  const rotate = (key: ApiKey) => {
    const answer = prompt(
      `Rotate the key ${key.name}? A new key replaces it; for how many seconds should the old one keep working (0 to 86400)?`,
      '3600',
    );
    if (answer === null) return;
    void act(() =>
      post<ApiKey>(`${base}/${encodeURIComponent(key.id)}/rotate`, {
        graceSeconds: Number(answer),
      }),
    );
  };

  const revoke = (key: ApiKey) => {
    if (!confirm(`Revoke the key ${key.name}? Scripts using it stop working at once.`)) return;
    void act(async () => {
      await del(`${base}/${encodeURIComponent(key.id)}`);
      return undefined;
    });
  };

  return (
    <>
      <form class="card inline-form" onSubmit={(event) => void create(event)} aria-label={label}>
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
        <fieldset class="checks">
          <legend>Scopes</legend>
          <div>
            {allowed.map((scope) => (
              <label key={scope} title={SCOPE_HINTS[scope]}>
                <input
                  type="checkbox"
                  name="scopes"
                  value={scope}
                  checked={scopes.includes(scope)}
                  onChange={(event) =>
                    setScopes(
                      event.currentTarget.checked
                        ? [...scopes, scope]
                        : scopes.filter((one) => one !== scope),
                    )
                  }
                />{' '}
                {scope}
              </label>
            ))}
          </div>
        </fieldset>
        <Field label="Sources (optional)" hint="feeds it may ingest as, comma-separated">
          <input
            name="sources"
            value={sources}
            onInput={(event) => setSources(event.currentTarget.value)}
          />
        </Field>
        <Field label="Allowed addresses (optional)" hint="e.g. 192.0.2.0/24, comma-separated">
          <input
            name="allowedCidrs"
            value={cidrs}
            onInput={(event) => setCidrs(event.currentTarget.value)}
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
              <th scope="col">Scopes</th>
              <th scope="col">Sources</th>
              <th scope="col">Addresses</th>
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
                <td>{key.scopes.join(', ')}</td>
                <td>{key.sources?.join(', ') ?? 'any'}</td>
                <td class="mono">{key.allowedCidrs?.join(', ') ?? 'any'}</td>
                <td>{formatTime(key.createdAt)}</td>
                <td>{key.expiresAt ? formatTime(key.expiresAt) : 'never'}</td>
                <td>
                  {key.lastUsedAt ? formatTime(key.lastUsedAt) : 'never'}
                  {key.lastUsedIp && <span class="mono"> from {key.lastUsedIp}</span>}
                </td>
                <td>
                  <button type="button" class="secondary" onClick={() => rotate(key)}>
                    Rotate<span class="visually-hidden"> {key.name}</span>
                  </button>{' '}
                  <button type="button" class="danger" onClick={() => revoke(key)}>
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
