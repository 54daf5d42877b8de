import { useState } from 'preact/hooks';
import { del, get, post, put, type Role, type User } from '../api';
import { ErrorMessage, Field, formatTime, useAsync, useTitle } from '../ui';

const ROLES: Role[] = ['viewer', 'editor', 'admin'];

export function UsersPage({ user }: { user: User }) {
  useTitle('Users');
  const users = useAsync(() => get<User[]>('/api/users'), []);
  const [draft, setDraft] = useState({ email: '', name: '', password: '', role: 'viewer' as Role });
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
    if (await run(() => post('/api/users', draft), `Created ${draft.email}.`)) {
      setDraft({ email: '', name: '', password: '', role: 'viewer' });
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
        <Field label="E-mail">
          <input
            type="email"
            required
            value={draft.email}
            onInput={(event) => setDraft({ ...draft, email: event.currentTarget.value })}
          />
        </Field>
        <Field label="Name">
          <input
            required
            value={draft.name}
            onInput={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
          />
        </Field>
        <Field label="Password" hint="at least 12 characters">
          <input
            type="password"
            autoComplete="new-password"
            required
            value={draft.password}
            onInput={(event) => setDraft({ ...draft, password: event.currentTarget.value })}
          />
        </Field>
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
                <td>{one.email}</td>
                <td>{one.name}</td>
                <td>
                  <select
                    aria-label={`Role of ${one.email}`}
                    value={one.role}
                    onChange={(event) => {
                      const role = event.currentTarget.value;
                      void run(
                        () => put(`/api/users/${encodeURIComponent(one.id)}`, { role }),
                        `${one.email} is now ${role}.`,
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
                        confirm(`Delete ${one.email}? Their sessions and API keys stop working.`)
                      ) {
                        void run(
                          () => del(`/api/users/${encodeURIComponent(one.id)}`),
                          `Deleted ${one.email}.`,
                        );
                      }
                    }}
                  >
                    Delete<span class="visually-hidden"> {one.email}</span>
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
