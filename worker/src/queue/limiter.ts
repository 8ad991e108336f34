/** How often a job waiting for a slot asks whether it is still wanted (its cancel flag). */
const WAIT_CHECK_MS = 1000;

/**
 * A counting semaphore: at most `size` calls of run() at once, the rest wait in order. The worker keeps one
 * for jobs on its own models (WORKER_CONCURRENCY) and one for jobs sent to a hosted API
 * (GENERATION_API_CONCURRENCY), so slow remote calls never hold the GPU's slots and the reverse.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  /**
   * Runs `fn` in a slot. While it waits for one, `stillWanted` (when given) is asked every second: a job cancelled
   * meanwhile leaves the line with its error at once instead of when a slot frees, which a long job may hold for
   * minutes.
   */
  async run<T>(fn: () => Promise<T>, stillWanted?: () => Promise<void>): Promise<T> {
    if (this.active >= this.size) await this.wait(stillWanted);
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

  private wait(stillWanted?: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter = () => {
        clearInterval(timer);
        resolve();
      };
      this.waiting.push(waiter);
      const timer = stillWanted
        ? setInterval(() => {
            stillWanted().catch((err: unknown) => {
              const at = this.waiting.indexOf(waiter);
              // Already handed a slot: the job runs and sees its cancel flag itself.
              if (at < 0) return;
              this.waiting.splice(at, 1);
              clearInterval(timer);
              reject(err instanceof Error ? err : new Error(String(err)));
            });
          }, WAIT_CHECK_MS)
        : undefined;
    });
  }
}
