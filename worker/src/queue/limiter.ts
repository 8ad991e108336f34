/**
 * A counting semaphore: at most `size` calls of run() at once, the rest wait in order. The worker keeps one
 * for jobs on its own models (WORKER_CONCURRENCY) and one for jobs sent to a hosted API
 * (GENERATION_API_CONCURRENCY), so slow remote calls never hold the GPU's slots and the reverse.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await fn();
    } finally {
      // Hand the slot straight to the next waiter, or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
