import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { JOB_NAMES } from '@imagestudio/contracts';
import { TOOLS } from '../config/tools';

/** A tool's landing page leads to the tool itself: its chunk is fetched while the visitor reads. */
const NEXT_FROM_LANDING: Record<string, string> = Object.fromEntries(
  JOB_NAMES.map((tool) => [TOOLS[tool].landingPath, TOOLS[tool].path]),
);

/** The same-origin pathname a link points at, or null. */
function linkPath(target: EventTarget | null): string | null {
  const link = target instanceof Element ? target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return null;
  return link.pathname;
}

/**
 * Fetches a page's chunk before the click: when a link to it is pointed at, touched or focused (one listener
 * on the document covers every link, the header's tool menu included), and on a tool's landing page for that
 * tool. `table` maps paths to their chunk's preload; a preload runs at most once.
 */
export function usePrefetchOnIntent(table: Record<string, () => Promise<unknown>>): void {
  const { pathname } = useLocation();
  useEffect(() => {
    const onIntent = (event: Event) => {
      const path = linkPath(event.target);
      if (path && table[path]) void table[path]().catch(() => undefined);
    };
    const events = ['pointerover', 'touchstart', 'focusin'] as const;
    for (const name of events) document.addEventListener(name, onIntent, { passive: true });
    return () => {
      for (const name of events) document.removeEventListener(name, onIntent);
    };
  }, [table]);
  useEffect(() => {
    const next = NEXT_FROM_LANDING[pathname];
    if (next && table[next]) void table[next]().catch(() => undefined);
  }, [pathname, table]);
}
