import { render } from '@testing-library/react';
import { App } from '../app/app';
import { createTestRouter } from '../app/router';
import { makeStore, type FakeApi } from './fake-api';

/** Renders the whole app at `path` on a test router, with a store that talks to the fake API. */
export function renderApp(path: string, api: FakeApi) {
  const router = createTestRouter(path);
  const { store } = makeStore(api);
  render(<App store={store} router={router} />);
  return { router, store, api };
}
