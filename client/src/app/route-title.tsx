import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useStore } from '../stores';

/** How long after a route change the page's heading is waited for (pages that load their data first). */
const HEADING_WAIT_MS = 3000;

function mainHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');
}

/**
 * Every route names itself: the document title is the page's main heading and the app's name
 * ("Remove background - Image Studio"; the home page is the app's name alone), kept in step when the
 * heading changes (language switch, data arriving). After a route change (not the first load) focus
 * moves to that heading, so screen readers announce the new page and Tab starts from its top.
 */
export function RouteTitle() {
  const { pathname } = useLocation();
  const { t } = useStore();
  const appName = t('shell.app.name');
  const first = useRef(true);

  useEffect(() => {
    const update = () => {
      const heading = pathname === '/' ? '' : (mainHeading()?.textContent ?? '').trim();
      const title = heading ? `${heading} - ${appName}` : appName;
      if (document.title !== title) document.title = title;
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [pathname, appName]);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const started = Date.now();
    let frame = 0;
    const focusHeading = () => {
      const heading = mainHeading();
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
        return;
      }
      if (Date.now() - started < HEADING_WAIT_MS) frame = requestAnimationFrame(focusHeading);
    };
    frame = requestAnimationFrame(focusHeading);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);

  return null;
}
