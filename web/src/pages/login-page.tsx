import { useEffect, useState } from 'preact/hooks';
import { get, post, session, type User } from '../api';
import { navigate } from '../router';
import { ErrorMessage, Field, useTitle } from '../ui';

interface SignInOptions {
  password: boolean;
  oidc: { enabled: boolean; name: string | null };
}

/** Where the sign-in page keeps `next` while the identity provider signs the person in. */
const SSO_NEXT = 'asset-map.sso-next';

interface Session {
  token: string;
  user: User;
}

export function LoginPage({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  useTitle('Sign in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [options, setOptions] = useState<SignInOptions | null>(null);
  const params = new URLSearchParams(location.search);
  const expired = params.has('expired');
  const ssoError = params.get('sso_error');

  // The page a link asked for, kept across the trip to the identity provider (which comes back
  // to /login?sso=1, without it): put back into the address, where the app reads it.
  const keepNext = () => {
    const next = params.get('next');
    if (next) sessionStorage.setItem(SSO_NEXT, next);
    else sessionStorage.removeItem(SSO_NEXT);
  };
  const takeNext = () => {
    const next = sessionStorage.getItem(SSO_NEXT);
    sessionStorage.removeItem(SSO_NEXT);
    if (next) navigate(`/login?next=${encodeURIComponent(next)}`, true);
  };

  const signedIn = (answer: Session) => {
    session.set(answer.token);
    onSignedIn(answer.user);
  };

  useEffect(() => {
    get<SignInOptions>('/api/auth/config').then(setOptions, () => setOptions(null));
    // Back from the identity provider: its sign-in left a cookie to take the session with.
    if (params.has('sso')) {
      setBusy(true);
      takeNext();
      post<Session>('/api/auth/oidc/session').then(signedIn, (failure: unknown) => {
        setError(failure);
        setBusy(false);
      });
    }
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      signedIn(await post<Session>('/api/auth/login', { email, password }));
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
      {ssoError && (
        <p class="error" role="alert">
          {ssoError}
        </p>
      )}
      {options?.oidc.enabled && (
        <p class="card sso">
          {/* A page of the service, not of the UI: target keeps the client-side router away. */}
          <a class="button" href="/api/auth/oidc/login" target="_self" onClick={keepNext}>
            Sign in with {options.oidc.name ?? 'single sign-on'}
          </a>
        </p>
      )}
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
