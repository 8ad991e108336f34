import { RateLimiterRes } from 'rate-limiter-flexible';
import type { ComposeSources, ProductPhotoLayout } from '@imagestudio/contracts';
import { AppError, serviceUnavailable, validationError } from '../../lib/errors';
import { Slots } from '../../lib/slots';
import { tooManyRequests } from '../../http/rate-limits';
import type { AppContext } from '../../context';
import type { AppServices } from '../../services';
import * as repo from './jobs.repository';

/**
 * Re-composition is free, so what one customer can make it cost is bounded here (translations of the messages in
 * migrations/seeds/strings/server.json):
 * - the canvas: a `WxH` canvas at most twice the cut-out's long side, or COMPOSE_CANVAS_FLOOR when that is more
 *   (a 64 px photo on an 8000 px canvas took 45 CPU-seconds and added no detail);
 * - the stored pictures: at most COMPOSE_STORAGE_MB_PER_USER of compositions kept at once per customer;
 * - the work: COMPOSE_MEGAPIXELS_PER_HOUR of canvas per customer per hour, counted in Redis (AVIF at four times
 *   its pixels: it costs about that much more to encode);
 * - the machine: at most COMPOSE_CONCURRENCY renders at once per API process, in order, and at most
 *   COMPOSE_QUEUE_MAX waiting; beyond that 503 with Retry-After. Four concurrent 4000 px AVIF renders once held
 *   libuv's whole thread pool, and another customer's upload check waited up to 70 s behind them.
 */
export const COMPOSE_LIMIT_MESSAGES = {
  canvas: "The canvas is too large for this photo: at most twice the photo's size, or 2048 pixels, on its longer side.",
  storage: 'Your saved pictures have reached the limit of {n} MB. Delete older results in History to make more.',
  hourly: 'You have made a lot of pictures in the last hour. Please wait a few minutes before making more.',
  busy: 'Many pictures are being made right now. Please try again in a few seconds.',
} as const;

/** The long side a `WxH` canvas may always have, whatever the photo's size. */
export const COMPOSE_CANVAS_FLOOR = 2048;
/** Seconds a customer is asked to wait when every render slot and the queue are taken. */
const BUSY_RETRY_AFTER_S = 5;

/** Refuses a `WxH` canvas larger than twice the cut-out's long side (or COMPOSE_CANVAS_FLOOR). */
export function assertComposeCanvas(layout: ProductPhotoLayout, sources: ComposeSources): void {
  if (layout.canvas.kind !== 'size') return;
  const allowed = Math.max(COMPOSE_CANVAS_FLOOR, 2 * Math.max(sources.width, sources.height));
  if (Math.max(layout.canvas.width, layout.canvas.height) > allowed)
    throw validationError({ canvas: [COMPOSE_LIMIT_MESSAGES.canvas] });
}

/**
 * The megapixels a render is counted as, before it runs: the canvas when it is given, else the cut-out's size (an
 * `original` or `aspect` canvas is about the content's size), capped by max_side; AVIF counts four times.
 */
export function composeMegapixels(layout: ProductPhotoLayout, sources: ComposeSources): number {
  let [w, h] =
    layout.canvas.kind === 'size' ? [layout.canvas.width, layout.canvas.height] : [sources.width, sources.height];
  if (layout.maxSide !== null && Math.max(w, h) > layout.maxSide) {
    const s = layout.maxSide / Math.max(w, h);
    [w, h] = [w * s, h * s];
  }
  const weight = layout.outputFormat === 'avif' ? 4 : 1;
  return Math.max(1, Math.ceil((w * h * weight) / 1e6));
}

/** The part of the app the compose budget uses (routes pass the whole context). */
export type ComposeBudgetDeps = Pick<AppContext, 'config' | 'db'> & { services: Pick<AppServices, 'rateLimits'> };

const renderSlots = new WeakMap<object, Slots>();

/** The render slots of this API process (one set per app, so tests with their own settings do not share them). */
function slotsOf(ctx: ComposeBudgetDeps): Slots {
  let slots = renderSlots.get(ctx.services);
  if (!slots) renderSlots.set(ctx.services, (slots = new Slots(ctx.config.COMPOSE_CONCURRENCY)));
  return slots;
}

/**
 * Runs one re-composition's `render` within the customer's and the process's budgets (see above): the stored
 * pictures and the hourly megapixels are checked first (429), then the render waits for a slot (503 when too many
 * already wait). The megapixels of a render refused for a busy process are given back.
 */
export async function withinComposeBudget<T>(
  ctx: ComposeBudgetDeps,
  userId: string,
  megapixels: number,
  render: () => Promise<T>,
): Promise<T> {
  const storedBytes = await repo.storedCompositionBytes(ctx.db, userId);
  if (storedBytes >= ctx.config.COMPOSE_STORAGE_MB_PER_USER * 1024 * 1024)
    throw new AppError(
      'rate_limited',
      COMPOSE_LIMIT_MESSAGES.storage.replace('{n}', String(ctx.config.COMPOSE_STORAGE_MB_PER_USER)),
      { headers: { 'Retry-After': '3600' } },
    );
  const limiter = ctx.services.rateLimits.named('compose-mp', ctx.config.COMPOSE_MEGAPIXELS_PER_HOUR, 3600);
  // Never more than the whole hour's budget, so one large render is possible with a full budget.
  const points = Math.min(megapixels, ctx.config.COMPOSE_MEGAPIXELS_PER_HOUR);
  try {
    await limiter.consume(userId, points);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw tooManyRequests(err.msBeforeNext, COMPOSE_LIMIT_MESSAGES.hourly);
    throw err;
  }
  try {
    return await withinRenderSlots(ctx, render);
  } catch (err) {
    if (err instanceof AppError && err.code === 'service_unavailable')
      await limiter.reward(userId, points).catch(() => undefined);
    throw err;
  }
}

/**
 * Runs `render` in one of the process's render slots (COMPOSE_CONCURRENCY at once, in order); 503 with Retry-After
 * when COMPOSE_QUEUE_MAX already wait. Re-compositions and the editor's previews share them: both render a
 * full-size picture on libuv's thread pool.
 */
export function withinRenderSlots<T>(ctx: ComposeBudgetDeps, render: () => Promise<T>): Promise<T> {
  const slots = slotsOf(ctx);
  // A free slot always takes the render: COMPOSE_QUEUE_MAX=0 means none may wait, not that none may run.
  if (!slots.free && slots.waiting >= ctx.config.COMPOSE_QUEUE_MAX)
    return Promise.reject(
      serviceUnavailable(COMPOSE_LIMIT_MESSAGES.busy, { 'Retry-After': String(BUSY_RETRY_AFTER_S) }),
    );
  return slots.run(render);
}
