import { createBrowserRouter, createMemoryRouter } from 'react-router';
import { requiresAuth } from '../config/paths';
import type { AppNavigator } from '../stores';
import { routes } from './routes';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/** The browser router of the running app. */
export function createAppRouter(): AppRouter {
  return createBrowserRouter(routes);
}

/** An in-memory router at `initialPath`, for tests. */
export function createTestRouter(initialPath: string): AppRouter {
  return createMemoryRouter(routes, { initialEntries: [initialPath] });
}

/** Lets stores navigate through the router (401 to Login, 403 to email verification). */
export function routerNavigator(router: AppRouter): AppNavigator {
  const location = () => router.state.location;
  return {
    navigate: (to, options) => void router.navigate(to, { replace: options?.replace }),
    location: () => ({ pathname: location().pathname, search: location().search, hash: location().hash }),
    fullPath: () => `${location().pathname}${location().search}${location().hash}`,
    requiresAuth,
  };
}
