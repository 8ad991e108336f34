import type { RequestHandler } from 'express';
import type { routes } from '@imagestudio/contracts';
import type { RouteHandlers } from '../../http/route-table';
import { requireReauth } from './admin-guard';

/**
 * Handlers for entries of the console's area of the route table. Each file of this module builds the map of its
 * part (`satisfies AdminHandlers` types every handler by its entry) and adminRouter mounts them together.
 */
export type AdminHandlers = Partial<RouteHandlers<typeof routes.admin>>;

/** What runs before a money or account change: a password confirmed within ADMIN_REAUTH_MS. */
export const REAUTH: RequestHandler[] = [requireReauth];
