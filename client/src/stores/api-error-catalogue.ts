import type { ApiRequestError } from '../lib/api/api-error';
import type { RootStore } from './root-store';

const UNVERIFIED_MESSAGE = 'Your email address is not verified.';

/**
 * The error catalogue, run for every failed call that did not opt out:
 * network and 5xx/429 toasts, 401 session expiry, 403 unverified redirect or toast, 422 logged only.
 */
export function handleApiError(root: RootStore, error: ApiRequestError): void {
  if (error.kind === 'network') {
    root.ui.error(root.t('shell.errors.network'));
    return;
  }
  const status = error.status ?? 0;
  if (status === 401) {
    root.auth.handleUnauthorized();
  } else if (status === 403) {
    if (error.code === 'email_not_verified' || error.message === UNVERIFIED_MESSAGE) {
      const nav = root.navigator;
      if (nav.location().pathname !== '/email-verification') {
        nav.navigate(`/email-verification?redirect=${encodeURIComponent(nav.fullPath())}`);
      }
    } else {
      root.ui.error(error.message || root.t('shell.errors.forbidden'));
    }
  } else if (status === 422) {
    console.warn('Validation failed', error.fieldErrors);
  } else if (status === 429) {
    root.ui.warning(root.t('shell.errors.tooManyRequests'));
  } else if (status >= 500) {
    root.ui.error(root.t('shell.errors.server'));
  }
}
