import type { TestContext } from './harness';

const WAIT_MS = 5000;

/** Resolves once the app's session user cache listens for change notices (it connects after createApp). */
export function untilListening(t: TestContext): Promise<void> {
  const cache = t.ctx.services.sessionUsers;
  if (cache.listening) return Promise.resolve();
  return waitFor(t, 'listening', () => true, 'the LISTEN connection to come up');
}

/**
 * Resolves once the app has applied a `user_changed` notice for the user. Call it before the change and await
 * it after: the notice travels from Postgres to the app on its own connection, after the change commits.
 */
export function noticeFor(t: TestContext, userId: string): Promise<void> {
  return waitFor(t, 'changed', (id) => id === userId || id === '*', `a user_changed notice for ${userId}`);
}

/** Resolves once the LISTEN connection is reported lost. */
export function untilDown(t: TestContext): Promise<void> {
  return waitFor(t, 'down', () => true, 'the LISTEN connection to drop');
}

function waitFor(t: TestContext, event: string, match: (arg: string) => boolean, what: string): Promise<void> {
  const events = t.ctx.services.sessionUsers.events;
  return new Promise((resolve, reject) => {
    const onEvent = (arg: string) => {
      if (!match(arg)) return;
      stop();
      resolve();
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`timed out waiting for ${what}`));
    }, WAIT_MS);
    const stop = () => {
      clearTimeout(timer);
      events.off(event, onEvent);
    };
    events.on(event, onEvent);
  });
}
