import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { RouterProvider } from 'react-router';
import { StoreProvider, type RootStore } from '../stores';
import { routerNavigator, type AppRouter } from './router';
import './app.css';

/**
 * The app at once, while the stores load: pages paint their static parts (the home page's hero) without
 * waiting for the API and fill in catalogue data as it arrives; guards wait for the session check. Only a
 * failed start replaces the app, with its message.
 */
const AppGate = observer(function AppGate({ store, router }: { store: RootStore; router: AppRouter }) {
  if (store.initState === 'failed') {
    return (
      <div className="init-error" role="alert">
        <p>
          {store.t('shell.app.initError')} {store.initError}
        </p>
      </div>
    );
  }
  return <RouterProvider router={router} />;
});

/** The whole client: store context, start-up, router. */
export function App({ store, router }: { store: RootStore; router: AppRouter }) {
  const [started] = useState(() => {
    store.setNavigator(routerNavigator(router));
    return true;
  });
  useEffect(() => {
    if (started && store.initState === 'idle') void store.init();
  }, [started, store]);
  return (
    <StoreProvider store={store}>
      <AppGate store={store} router={router} />
    </StoreProvider>
  );
}
