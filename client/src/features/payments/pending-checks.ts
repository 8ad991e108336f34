/** The pending page checks 5 s after opening, then every 30 s. */
export const PENDING_FIRST_CHECK_MS = 5000;
export const PENDING_CHECK_EVERY_MS = 30000;

/**
 * Runs `check` 5 s from now and then every 30 s until the returned stop function is called (when the
 * page is left): each check refetches the profile so a balance credited meanwhile shows up.
 */
export function startPendingChecks(check: () => void): () => void {
  let interval: ReturnType<typeof setInterval> | null = null;
  const first = setTimeout(() => {
    check();
    interval = setInterval(check, PENDING_CHECK_EVERY_MS);
  }, PENDING_FIRST_CHECK_MS);
  return () => {
    clearTimeout(first);
    if (interval) clearInterval(interval);
  };
}
