import type { User } from '../api';
import { useTitle } from '../ui';
import { KeyManager } from './key-manager';

export function ApiKeysPage({ user }: { user: User }) {
  useTitle('API keys');
  return (
    <>
      <h1 tabIndex={-1}>API keys</h1>
      <p>
        Keys act with your role, for scripts and CI jobs, within their scopes, sources and allowed
        addresses. A key is shown once, when it is made; rotating one gives a new key and lets the
        old one work a while longer.
      </p>
      <KeyManager base="/api/auth/api-keys" role={user.role} label="New API key" />
    </>
  );
}
