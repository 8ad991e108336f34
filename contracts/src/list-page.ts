import { z } from 'zod';

/**
 * Every paged list reply (jobs, batches, payments, token activity, the console's lists): one page of `item`s,
 * newest first, and where it stands. Pages count from 1.
 */
export function listPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    last_page: z.number().int(),
  });
}
