import { useEffect, useState, type ComponentType } from 'react';
import { observer } from 'mobx-react-lite';
import { PageSpinner } from '../components';
import { useStore } from '../stores';
import './app.css';

/**
 * What a route shows while its page's chunk arrives: a spinner a screen tall, so the footer stays below the
 * fold and nothing visible moves when the page replaces it.
 */
const RouteFallback = observer(function RouteFallback() {
  const { t } = useStore();
  return (
    <div className="route-fallback">
      <PageSpinner label={t('shell.app.loading')} />
    </div>
  );
});

/** A page component whose code comes in its own chunk, with `preload` to fetch that chunk ahead of need. */
export type LazyPage<P extends object> = ComponentType<P> & { preload: () => Promise<unknown> };

/**
 * Wraps a page in its own chunk behind a spinner. The libraries only that page uses (phone numbers, the
 * comparison slider, checkout) travel with it, so the first page a visitor opens stays small. `preload` starts
 * the download early; a failed download is forgotten, so the next attempt tries again.
 *
 * The page is swapped in by a state update when its chunk has arrived, not by React.lazy and Suspense: in the
 * browser tests a lazy page now and then stayed on its spinner after the chunk had loaded, until some other
 * update (the next tool-status poll, 10 s later) rendered it again. A state update cannot be missed that way.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (Component) => (loaded = Component),
      (err: unknown) => {
        pending = undefined;
        throw err;
      },
    ));
  function Page(props: P) {
    const [Component, setComponent] = useState<ComponentType<P> | undefined>(() => loaded);
    const [failure, setFailure] = useState<unknown>(null);
    useEffect(() => {
      if (Component) return;
      let live = true;
      preload().then(
        // A component is a function: wrapped, so that useState stores it instead of calling it.
        (loadedPage) => live && setComponent(() => loadedPage),
        (err: unknown) => live && setFailure(err instanceof Error ? err : new Error(String(err))),
      );
      return () => {
        live = false;
      };
    }, [Component]);
    // A chunk that cannot be loaded goes to the nearest error boundary, as a failed React.lazy would.
    if (failure) throw failure;
    return Component ? <Component {...props} /> : <RouteFallback />;
  }
  return Object.assign(Page, { preload });
}
