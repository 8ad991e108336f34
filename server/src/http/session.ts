import type { RequestHandler } from 'express';
import type { AppContext } from '../context';

/** Session + passport middleware (the Accounts issue fills this slot). */
export function sessionMiddleware(_ctx: AppContext): RequestHandler[] {
  return [];
}
