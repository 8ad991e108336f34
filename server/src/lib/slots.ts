/**
 * At most `size` tasks at once; the others wait in order. Bounds work that occupies libuv's thread pool (sharp
 * renders, decodes), which every upload check and file read of the process needs too.
 */
export class Slots {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** Whether a task started now would run at once. */
  get free(): boolean {
    return this.running < this.size;
  }

  /** Tasks waiting for a slot now. */
  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.queue.shift();
      // The slot passes straight to the next task, so `running` never drops below what is really running.
      if (next) next();
      else this.running--;
    }
  }
}
