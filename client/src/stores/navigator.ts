/** How stores reach the router without importing it (import direction: stores never import app/). */
export interface AppNavigator {
  navigate(to: string, options?: { replace?: boolean }): void;
  location(): { pathname: string; search: string; hash: string };
  /** Path plus query plus hash of the current page. */
  fullPath(): string;
  /** Whether the page at this path is only for signed-in users. */
  requiresAuth(pathname: string): boolean;
}

/** A navigator over window.location, used until the app installs the router's own. */
export function windowNavigator(requiresAuth: (pathname: string) => boolean = () => false): AppNavigator {
  return {
    navigate: (to, options) => (options?.replace ? window.location.replace(to) : window.location.assign(to)),
    location: () => ({
      pathname: window.location.pathname,
      search: window.location.search,
      hash: window.location.hash,
    }),
    fullPath: () => `${window.location.pathname}${window.location.search}${window.location.hash}`,
    requiresAuth,
  };
}
