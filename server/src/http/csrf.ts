import type { RequestHandler } from 'express';
import type { AppContext } from '../context';

/** Session-bound XSRF protection (the Accounts issue fills this slot). */
export function csrfMiddleware(_ctx: AppContext): RequestHandler[] {
  return [];
}
