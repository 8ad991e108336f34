import { z } from 'zod';
import { LIMITS } from './constants';
import { JOB_STATUSES } from './jobs';
import { JOB_NAMES, UPSCALE_MODELS } from './tools';
import { intFromText } from './tools/schema-kit';

/**
 * The zod schemas of the job queries (jobs.ts has the statuses, messages and views). Each tool's request schema
 * is in its definition (tools/tool-schemas.ts builds them).
 */

export const quoteQuerySchema = z.object({
  tool: z.enum(JOB_NAMES),
  count: intFromText(z.number().int().min(1).max(LIMITS.imagesPerPromptMax)).default(1),
  factor: intFromText(z.number().int()).optional(),
  model: z.enum(UPSCALE_MODELS).optional(),
});

export const jobListQuerySchema = z.object({
  page: intFromText(z.number().int().min(1).max(100_000)).default(1),
  tool: z.enum(JOB_NAMES).optional(),
  status: z.enum(JOB_STATUSES).optional(),
});
