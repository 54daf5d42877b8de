import { useState } from 'preact/hooks';
import { del, get, post, put, type Role, type User } from '../api';
import { ErrorMessage, Field, formatTime, useAsync, useTitle } from '../ui';
import { KeyManager } from './key-manager';

const ROLES: Role[] = ['viewer', 'editor', 'admin'];

type Kind = User['kind'];
const EMPTY = { kind: 'person' as Kind, email: '', name: '', password: '', role: 'viewer' as Role };

/** How a user is named in sentences: its e-mail, or a service account's name. */
const nameOf = (one: User) => one.email ?? `${one.name} (service account)`;

export function UsersPage({ user }: { user: User }) {
  useTitle('Users');
  const users = useAsync(() => get<User[]>('/api/users'), []);
  const [draft, setDraft] = useState(EMPTY);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');

  const run = async (action: () => Promise<unknown>, message: string) => {
    setError(null);
    setDone('');
    try {
      await action();
      setDone(message);
      users.reload();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    }
  };

  const create = async (event: Event) => {
    event.preventDefault();
    const service = draft.kind === 'service';
    const body = service
      ? { kind: draft.kind, name: draft.name, role: draft.role }
      : { email: draft.email, name: draft.name, password: draft.password, role: draft.role };
    if (
      await run(() => post('/api/users', body), `Created ${service ? draft.name : draft.email}.`)
    ) {
      setDraft(EMPTY);
    }
  };

  if (user.role !== 'admin') {
    return (
      <>
        <h1 tabIndex={-1}>Users</h1>
        <p class="notice">Only administrators manage users.</p>
      </>
    );
  }

  return (
    <>
      <h1 tabIndex={-1}>Users</h1>
      <form class="card inline-form" onSubmit={(event) => void create(event)} aria-label="New user">
        <Field label="Kind">
          <select
            value={draft.kind}
            onChange={(event) => setDraft({ ...draft, kind: event.currentTarget.value as Kind })}
          >
            <option value="person">person</option>
            <option value="service">service account</option>
          </select>
        </Field>
        {draft.kind === 'person' && (
          <Field label="E-mail">
            <input
              type="email"
              required
              value={draft.email}
              onInput={(event) => setDraft({ ...draft, email: event.currentTarget.value })}
            />
          </Field>
        )}
        <Field label="Name">
          <input
            required
            value={draft.name}
            onInput={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
          />
        </Field>
        {draft.kind === 'person' && (
          <Field label="Password" hint="at least 12 characters">
            <input
              type="password"
              autoComplete="new-password"
              required
              value={draft.password}
              onInput={(event) => setDraft({ ...draft, password: event.currentTarget.value })}
            />
          </Field>
        )}
        <Field label="Role">
          <select
            value={draft.role}
            onChange={(event) => setDraft({ ...draft, role: event.currentTarget.value as Role })}
          >
            {ROLES.map((role) => (
              <option key={role}>{role}</option>
            ))}
          </select>
        </Field>
        <button type="submit">Create user</button>
      </form>
      <ErrorMessage error={error ?? users.error} />
      {done && <p role="status">{done}</p>}
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Role</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(users.data ?? []).map((one) => (
              <tr key={one.id}>
                <td>{one.email ?? '—'}</td>
                <td>{one.name}</td>
                <td>{one.kind === 'service' ? 'service account' : 'person'}</td>
                <td>
                  <select
                    aria-label={`Role of ${nameOf(one)}`}
                    value={one.role}
                    onChange={(event) => {
                      const role = event.currentTarget.value;
                      void run(
                        () => put(`/api/users/${encodeURIComponent(one.id)}`, { role }),
                        `${nameOf(one)} is now ${role}.`,
                      );
                    }}
                  >
                    {ROLES.map((role) => (
                      <option key={role}>{role}</option>
                    ))}
                  </select>
                </td>
                <td>{formatTime(one.createdAt)}</td>
                <td>
                  <button
                    type="button"
                    class="danger"
                    onClick={() => {
                      if (
                        confirm(`Delete ${nameOf(one)}? Their sessions and API keys stop working.`)
                      ) {
                        void run(
                          () => del(`/api/users/${encodeURIComponent(one.id)}`),
                          `Deleted ${nameOf(one)}.`,
                        );
                      }
                    }}
                  >
                    Delete<span class="visually-hidden"> {nameOf(one)}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {(users.data ?? [])
        .filter((one) => one.kind === 'service')
        .map((service) => (
          <section key={service.id} aria-label={`Keys of ${service.name}`}>
            <h2>
              Keys of the service account {service.name} ({service.role})
            </h2>
            <KeyManager
              base={`/api/users/${encodeURIComponent(service.id)}/api-keys`}
              role={service.role}
              label={`New API key for ${service.name}`}
            />
          </section>
        ))}
    </>
  );
}
