import { lazy, Suspense, type ComponentType } from 'react';
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
 * Wraps a page in its own chunk (React.lazy) behind a spinner. The libraries only that page uses (phone
 * numbers, the comparison slider, checkout) travel with it, so the first page a visitor opens stays small.
 * `preload` starts the download early; a failed download is forgotten, so the next attempt tries again.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (Component) => ({ default: Component }),
      (err: unknown) => {
        pending = undefined;
        throw err;
      },
    ));
  const Lazy = lazy(preload);
  function Page(props: P) {
    return (
      <Suspense fallback={<RouteFallback />}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return Object.assign(Page, { preload });
}
