import { Limiter } from './limiter';

/** The worker's slot pool: order, and a waiting job that is cancelled leaving the line at once. */
describe('Limiter', () => {
  it('runs at most `size` at once, the rest in order', async () => {
    const pool = new Limiter(1);
    const order: string[] = [];
    let release!: () => void;
    const first = pool.run(() => new Promise<void>((r) => (release = r)).then(() => void order.push('first')));
    const second = pool.run(async () => void order.push('second'));
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
  });

  it('lets a waiting job go with its error once it is no longer wanted, and hands the slot on as before', async () => {
    const pool = new Limiter(1);
    let release!: () => void;
    const busy = pool.run(() => new Promise<void>((r) => (release = r)));
    let cancelled = false;
    const started = Date.now();
    const waiting = pool.run(
      async () => 'ran',
      async () => {
        if (cancelled) throw new Error('cancelled');
      },
    );
    setTimeout(() => (cancelled = true), 100);
    await expect(waiting).rejects.toThrow('cancelled');
    expect(Date.now() - started).toBeLessThan(3000);
    // The slot still belongs to the busy job; the next caller gets it when that ends.
    const next = pool.run(async () => 'next');
    release();
    await busy;
    await expect(next).resolves.toBe('next');
  });
});
