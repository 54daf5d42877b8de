import { useState } from 'preact/hooks';
import { post, session, type User } from '../api';
import { ErrorMessage, Field, useTitle } from '../ui';

export function LoginPage({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  useTitle('Sign in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const expired = new URLSearchParams(location.search).has('expired');

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await post<{ token: string; user: User }>('/api/auth/login', {
        email,
        password,
      });
      session.set(answer.token);
      onSignedIn(answer.user);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="login">
      <h1 tabIndex={-1}>Sign in to Asset Map</h1>
      {expired && <p class="notice">Your session ended. Sign in again to go on.</p>}
      <form onSubmit={(event) => void submit(event)} class="card">
        <Field label="E-mail">
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onInput={(event) => setEmail(event.currentTarget.value)}
          />
        </Field>
        <Field label="Password">
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(event) => setPassword(event.currentTarget.value)}
          />
        </Field>
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p class="hint">You stay signed in in this tab only; closing it signs you out.</p>
      </form>
    </main>
  );
}
