import { DEFAULT_PRODUCT_PHOTO_LAYOUT, type ComposeSources, type ProductPhotoLayout } from '@imagestudio/contracts';
import type { Db } from '../../lib/db';
import { AppError } from '../../lib/errors';
import { compositionBytesDb, memoryRateLimits, testConfig, unreachable } from '../../test/fakes';
import {
  COMPOSE_CANVAS_FLOOR,
  COMPOSE_LIMIT_MESSAGES,
  assertComposeCanvas,
  composeMegapixels,
  withinComposeBudget,
  withinRenderSlots,
  type ComposeBudgetDeps,
} from './compose-budget';

/** What one customer's free re-compositions may cost: canvas size, megapixels counted, storage, render slots. */
const SOURCES: ComposeSources = { foregroundKey: 'f', matteKey: 'm', width: 1200, height: 800 };

const layout = (extra: Partial<ProductPhotoLayout>): ProductPhotoLayout => ({
  ...DEFAULT_PRODUCT_PHOTO_LAYOUT,
  ...extra,
});
const sized = (width: number, height: number, extra: Partial<ProductPhotoLayout> = {}) =>
  layout({ canvas: { kind: 'size', width, height }, ...extra });

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

/** A deferred render: resolves when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, render: () => opened.then(() => 'rendered') };
}

describe('the canvas a re-composition may ask for', () => {
  it('allows twice the long side of the photo, or the floor when that is more', () => {
    expect(() => assertComposeCanvas(sized(2400, 2400), SOURCES)).not.toThrow();
    expect(() => assertComposeCanvas(sized(2401, 100), SOURCES)).toThrow(COMPOSE_LIMIT_MESSAGES.canvas);
    const small = { ...SOURCES, width: 64, height: 64 };
    expect(() => assertComposeCanvas(sized(COMPOSE_CANVAS_FLOOR, 10), small)).not.toThrow();
    expect(() => assertComposeCanvas(sized(COMPOSE_CANVAS_FLOOR + 1, 10), small)).toThrow(AppError);
  });

  it('does not limit canvases that follow the photo', () => {
    expect(() => assertComposeCanvas(layout({ canvas: { kind: 'original' } }), SOURCES)).not.toThrow();
  });
});

describe('composeMegapixels', () => {
  it('counts the canvas when given, else the cut-out, rounded up, at least 1', () => {
    expect(composeMegapixels(sized(2000, 1500), SOURCES)).toBe(3);
    expect(composeMegapixels(layout({}), SOURCES)).toBe(1);
    expect(composeMegapixels(sized(100, 100), SOURCES)).toBe(1);
  });

  it('caps by max_side, keeping the aspect, and counts AVIF four times', () => {
    expect(composeMegapixels(sized(4000, 2000, { maxSide: 1000 }), SOURCES)).toBe(1);
    expect(composeMegapixels(sized(4000, 2000, { maxSide: 2000 }), SOURCES)).toBe(2);
    expect(composeMegapixels(sized(2000, 1500, { outputFormat: 'avif' }), SOURCES)).toBe(12);
  });
});

describe('withinComposeBudget', () => {
  const MB = 1024 * 1024;

  function deps(env: Record<string, string>, stored = new Map<string, number>()) {
    const rateLimits = memoryRateLimits();
    const ctx: ComposeBudgetDeps = {
      config: testConfig(env),
      db: compositionBytesDb(stored),
      services: { rateLimits },
    };
    return { ctx, used: async (user: string) => (await rateLimits.limiter('compose-mp')?.get(user))?.consumedPoints };
  }

  it('refuses a customer whose kept pictures reach the storage limit, before counting anything', async () => {
    const { ctx, used } = deps({ COMPOSE_STORAGE_MB_PER_USER: '10' }, new Map([['full', 10 * MB]]));
    const err = await rejection(withinComposeBudget(ctx, 'full', 1, async () => 'x'));
    expect([err.status, err.message, err.headers]).toEqual([
      429,
      COMPOSE_LIMIT_MESSAGES.storage.replace('{n}', '10'),
      { 'Retry-After': '3600' },
    ]);
    expect(await used('full')).toBeUndefined();
    await expect(withinComposeBudget(ctx, 'other', 1, async () => 'ok')).resolves.toBe('ok');
  });

  it('counts the megapixels of each render against the hour, one large render always fitting', async () => {
    const { ctx, used } = deps({ COMPOSE_MEGAPIXELS_PER_HOUR: '10' });
    await withinComposeBudget(ctx, 'u', 6, async () => 'a');
    expect(await used('u')).toBe(6);
    const err = await rejection(withinComposeBudget(ctx, 'u', 5, async () => 'b'));
    expect([err.status, err.message]).toEqual([429, COMPOSE_LIMIT_MESSAGES.hourly]);
    const fresh = deps({ COMPOSE_MEGAPIXELS_PER_HOUR: '10' });
    await expect(withinComposeBudget(fresh.ctx, 'v', 50, async () => 'huge')).resolves.toBe('huge');
    expect(await fresh.used('v')).toBe(10);
  });

  it('gives the megapixels back when the process is too busy to render', async () => {
    const { ctx, used } = deps({ COMPOSE_CONCURRENCY: '1', COMPOSE_QUEUE_MAX: '1', COMPOSE_MEGAPIXELS_PER_HOUR: '10' });
    const first = gate();
    const running = withinComposeBudget(ctx, 'u', 3, first.render);
    const waiting = withinComposeBudget(ctx, 'u', 2, async () => 'next');
    await new Promise((r) => setImmediate(r));
    const busy = await rejection(withinComposeBudget(ctx, 'u', 4, async () => 'late'));
    expect([busy.status, busy.headers?.['Retry-After']]).toEqual([503, '5']);
    expect(await used('u')).toBe(5);
    first.open();
    await expect(Promise.all([running, waiting])).resolves.toEqual(['rendered', 'next']);
  });
});

describe('withinRenderSlots', () => {
  it('runs COMPOSE_CONCURRENCY renders at once, queues COMPOSE_QUEUE_MAX in order, refuses the next', async () => {
    const config = testConfig({ COMPOSE_CONCURRENCY: '2', COMPOSE_QUEUE_MAX: '1' });
    const ctx: ComposeBudgetDeps = {
      config,
      db: unreachable<Db>('the database'),
      services: { rateLimits: memoryRateLimits() },
    };
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    const results = gates.map((g, i) =>
      withinRenderSlots(ctx, () => {
        started.push(i);
        return g.render();
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    const refused = await rejection(withinRenderSlots(ctx, async () => 'never'));
    expect(refused.message).toBe(COMPOSE_LIMIT_MESSAGES.busy);
    gates[0]?.open();
    await results[0];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await expect(Promise.all(results)).resolves.toEqual(['rendered', 'rendered', 'rendered']);
  });

  it('with COMPOSE_QUEUE_MAX=0 runs a render in a free slot and refuses only one that would wait', async () => {
    const config = testConfig({ COMPOSE_CONCURRENCY: '1', COMPOSE_QUEUE_MAX: '0' });
    const ctx = { config, db: unreachable<Db>('the database'), services: { rateLimits: memoryRateLimits() } };
    const g = gate();
    const running = withinRenderSlots(ctx, g.render);
    await expect(withinRenderSlots(ctx, async () => 'waits')).rejects.toThrow(COMPOSE_LIMIT_MESSAGES.busy);
    g.open();
    await expect(running).resolves.toBe('rendered');
    await expect(withinRenderSlots(ctx, async () => 'next')).resolves.toBe('next');
  });

  it('keeps separate slots per app', async () => {
    const config = testConfig({ COMPOSE_CONCURRENCY: '1', COMPOSE_QUEUE_MAX: '1' });
    const app = () => ({ config, db: unreachable<Db>('the database'), services: { rateLimits: memoryRateLimits() } });
    const [a, b] = [app(), app()];
    const g = gate();
    const runningA = withinRenderSlots(a, g.render);
    const waitingA = withinRenderSlots(a, async () => 'a');
    await expect(withinRenderSlots(b, async () => 'b')).resolves.toBe('b');
    await expect(withinRenderSlots(a, async () => 'refused')).rejects.toThrow(COMPOSE_LIMIT_MESSAGES.busy);
    g.open();
    await expect(Promise.all([runningA, waitingA])).resolves.toEqual(['rendered', 'a']);
  });
});
