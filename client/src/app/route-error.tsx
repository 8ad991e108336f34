import { useRouteError } from 'react-router';

/** Last-resort screen for a render error inside a route (logged for the console, short for the user). */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div className="container" role="alert" style={{ paddingTop: 'var(--space-16)' }}>
      <h1>Something went wrong</h1>
      <p>{error instanceof Error ? error.message : 'Please reload the page.'}</p>
    </div>
  );
}
