import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/**
 * While `unsaved`, leaving asks first: in-app navigation is blocked (the returned blocker drives the dialog) and
 * closing or reloading the tab gets the browser's prompt. Either way the save starts at once (`flush`).
 */
export function useLeaveGuard(unsaved: boolean, flush: () => void) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      unsaved && currentLocation.pathname + currentLocation.search !== nextLocation.pathname + nextLocation.search,
  );
  useEffect(() => {
    if (blocker.state === 'blocked') flush();
  }, [blocker.state]);
  useEffect(() => {
    if (!unsaved) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      flush();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [unsaved]);
  return blocker;
}
