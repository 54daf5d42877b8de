import { useEffect, useState } from 'preact/hooks';

type Listener = () => void;
const listeners = new Set<Listener>();
const notify = () => listeners.forEach((listener) => listener());
window.addEventListener('popstate', notify);

/** Client-side navigation: the server answers index.html for every page. */
export function navigate(to: string, replace = false): void {
  if (to === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
}

export interface Place {
  path: string;
  params: URLSearchParams;
}

export function useLocation(): Place {
  const [, setTick] = useState(0);
  const rendered = location.pathname + location.search;
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1);
    listeners.add(listener);
    // A child's effect may have navigated before this one subscribed.
    if (location.pathname + location.search !== rendered) listener();
    return () => void listeners.delete(listener);
  }, []);
  return { path: location.pathname, params: new URLSearchParams(location.search) };
}

/** Plain left clicks on same-origin links navigate in place; others (new tab) stay the browser's. */
export function onLinkClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest('a');
  if (!anchor || anchor.target || anchor.origin !== location.origin) return;
  if (anchor.hasAttribute('download')) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
}
