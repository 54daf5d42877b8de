import { lazy, Suspense } from 'preact/compat';
import { useEffect, useState } from 'preact/hooks';
import { get, session, whenUnauthorized, type User } from './api';
import { navigate, onLinkClick, useLocation } from './router';
import { AccountPage } from './pages/account-page';
import { ApiKeysPage } from './pages/api-keys-page';
import { DashboardPage } from './pages/dashboard-page';
import { AssetPage } from './pages/asset-page';
import { DiagramsPage } from './pages/diagrams-page';
import { FeedsPage } from './pages/feeds-page';
import { FindingsPage } from './pages/findings-page';
import { InventoryPage } from './pages/inventory-page';
import { LoginPage } from './pages/login-page';
import { RunPage, RunsPage } from './pages/runs-page';
import { UsersPage } from './pages/users-page';
import { WebhooksPage } from './pages/webhooks-page';
import { ErrorBoundary } from './error-boundary';
import { ErrorMessage } from './ui';

// The map (canvas, layout) is loaded when first opened, not with the first page.
const MapPage = lazy(() => import('./map/map-page').then((module) => module.MapPage));

const LINKS: { href: string; label: string; admin?: boolean }[] = [
  { href: '/dashboard', label: 'Dashboard' },
  { href: '/assets', label: 'Inventory' },
  { href: '/findings', label: 'Findings' },
  { href: '/map', label: 'Map' },
  { href: '/diagrams', label: 'Diagrams' },
  { href: '/runs', label: 'Ingestion runs' },
  { href: '/feeds', label: 'Feeds' },
  { href: '/webhooks', label: 'Webhooks', admin: true },
  { href: '/api-keys', label: 'API keys' },
  { href: '/users', label: 'Users', admin: true },
  { href: '/account', label: 'Account' },
];

export function App() {
  const place = useLocation();
  const [user, setUser] = useState<User | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [checking, setChecking] = useState(session.token !== null);

  const signOut = () => {
    session.set(null);
    setUser(null);
    navigate('/login');
  };

  useEffect(() => {
    whenUnauthorized(() => {
      session.set(null);
      setUser(null);
      const back = location.pathname + location.search;
      navigate(`/login?next=${encodeURIComponent(back)}&expired=1`, true);
    });
    if (session.token === null) return;
    get<User>('/api/auth/me').then(
      (me) => {
        setUser(me);
        setChecking(false);
      },
      (failure: unknown) => {
        setError(failure);
        setChecking(false);
      },
    );
  }, []);

  // Focus the page's heading after each navigation, so a screen reader announces the new page.
  useEffect(() => {
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [place.path]);

  if (checking) return <p class="loading">Loading…</p>;

  if (!user) {
    if (place.path !== '/login') {
      const here = place.path + location.search;
      return (
        <Redirect to={place.path === '/' ? '/login' : `/login?next=${encodeURIComponent(here)}`} />
      );
    }
    return (
      <div onClick={onLinkClick}>
        <ErrorMessage error={error} />
        <LoginPage onSignedIn={setUser} />
      </div>
    );
  }
  if (place.path === '/' || place.path === '/login') {
    const next = place.params.get('next');
    // Only a path of this site: ?next= must not send the person elsewhere.
    return <Redirect to={next?.startsWith('/') && !next.startsWith('//') ? next : '/dashboard'} />;
  }

  return (
    <div class="layout" onClick={onLinkClick}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/dashboard">
          Asset Map
        </a>
        <nav aria-label="Main">
          <ul>
            {LINKS.filter((link) => !link.admin || user.role === 'admin').map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  aria-current={place.path.startsWith(link.href) ? 'page' : undefined}
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span>
            {user.email ?? user.name} <span class="role">({user.role})</span>
          </span>
          <button type="button" class="secondary" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        <ErrorBoundary key={place.path}>{route(place.path, user)}</ErrorBoundary>
      </main>
    </div>
  );
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, true), [to]);
  return null;
}

function route(path: string, user: User) {
  const [, first, second] = path.split('/');
  const id = second ? decodeURIComponent(second) : undefined;
  switch (first) {
    case 'dashboard':
      return <DashboardPage />;
    case 'assets':
      return id ? <AssetPage id={id} user={user} /> : <InventoryPage user={user} />;
    case 'findings':
      return <FindingsPage user={user} />;
    case 'map':
      return (
        <Suspense fallback={<p class="loading">Loading the map…</p>}>
          <MapPage user={user} />
        </Suspense>
      );
    case 'diagrams':
      return <DiagramsPage user={user} />;
    case 'runs':
      return id ? <RunPage id={id} user={user} /> : <RunsPage />;
    case 'feeds':
      return <FeedsPage user={user} />;
    case 'webhooks':
      return <WebhooksPage user={user} id={id} />;
    case 'api-keys':
      return <ApiKeysPage user={user} />;
    case 'users':
      return <UsersPage user={user} />;
    case 'account':
      return <AccountPage user={user} />;
    default:
      return (
        <>
          <h1 tabIndex={-1}>Page not found</h1>
          <p>
            There is no page at {path}. <a href="/dashboard">Go to the dashboard</a>.
          </p>
        </>
      );
  }
}
