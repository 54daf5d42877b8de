import { useState } from 'preact/hooks';
import { post, session, type User } from '../api';
import { ErrorMessage, Field, useTitle } from '../ui';

export function AccountPage({ user }: { user: User }) {
  useTitle('Account');
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setDone(false);
    if (newPassword !== repeat) {
      setError(new Error('The new password and its repetition differ.'));
      return;
    }
    setError(null);
    try {
      await post('/api/auth/password', { currentPassword, newPassword });
      // The change ends every earlier session, this one too: sign this tab in again.
      const answer = await post<{ token: string }>('/api/auth/login', {
        email: user.email,
        password: newPassword,
      });
      session.set(answer.token);
      setDone(true);
      setCurrent('');
      setNew('');
      setRepeat('');
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Account</h1>
      <dl class="fields">
        <div>
          <dt>E-mail</dt>
          <dd>{user.email}</dd>
        </div>
        <div>
          <dt>Name</dt>
          <dd>{user.name}</dd>
        </div>
        <div>
          <dt>Role</dt>
          <dd>{user.role}</dd>
        </div>
      </dl>
      <section aria-labelledby="password" class="card narrow">
        <h2 id="password">Change password</h2>
        <form onSubmit={(event) => void submit(event)}>
          <Field label="Current password">
            <input
              type="password"
              autoComplete="current-password"
              required
              value={currentPassword}
              onInput={(event) => setCurrent(event.currentTarget.value)}
            />
          </Field>
          <Field label="New password" hint="at least 12 characters">
            <input
              type="password"
              autoComplete="new-password"
              required
              value={newPassword}
              onInput={(event) => setNew(event.currentTarget.value)}
            />
          </Field>
          <Field label="New password again">
            <input
              type="password"
              autoComplete="new-password"
              required
              value={repeat}
              onInput={(event) => setRepeat(event.currentTarget.value)}
            />
          </Field>
          <ErrorMessage error={error} />
          {done && (
            <p role="status">Password changed. Other sessions of yours have been signed out.</p>
          )}
          <button type="submit">Change password</button>
        </form>
      </section>
    </>
  );
}
