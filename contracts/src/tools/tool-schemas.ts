import type { z } from 'zod';
import { JOB_NAMES, TOOLS, type JobName, type ToolContractOf } from './index';
import { schemaKit } from './schema-kit';

/** The tools' zod schemas, built once from each tool's definition (the browser bundle never imports this module). */

type SchemasOf<N extends JobName> = ReturnType<ToolContractOf<N>['schemas']>;

/** Per tool: the schema of its request fields and of its queue payload. */
export const TOOL_SCHEMAS = Object.fromEntries(TOOLS.map((t) => [t.name, t.schemas(schemaKit)])) as {
  readonly [N in JobName]: SchemasOf<N>;
};

/** Job name -> payload schema; the worker re-validates every payload with it. */
export const jobPayloadSchemas = Object.fromEntries(JOB_NAMES.map((n) => [n, TOOL_SCHEMAS[n].payload])) as {
  readonly [N in JobName]: SchemasOf<N>['payload'];
};
/** Job name -> its payload: the one map that types the producer (server/src/lib/queue.ts) and the worker's tools. */
export type JobPayloads = { [N in JobName]: z.infer<SchemasOf<N>['payload']> };
/** Any job's payload: what the queue's jobs carry as their data. */
export type JobData = JobPayloads[JobName];

/**
 * The payload schema of job `name`, typed by the name: parsing with it gives `JobPayloads[N]` also where `name`
 * is a type parameter, which indexing `jobPayloadSchemas` cannot (TypeScript sees every schema's output there).
 */
export function jobPayloadSchema<N extends JobName>(name: N): z.ZodType<JobPayloads[N]> {
  return jobPayloadSchemas[name] as unknown as z.ZodType<JobPayloads[N]>;
}
/** Job name -> the request's fields after parsing. */
type ToolRequests = { [N in JobName]: z.infer<SchemasOf<N>['request']> };

export const generateRequestSchema = TOOL_SCHEMAS.generate.request;
export const removeBackgroundRequestSchema = TOOL_SCHEMAS['remove-background'].request;
export const upscaleRequestSchema = TOOL_SCHEMAS.upscale.request;
export type GenerateRequest = ToolRequests['generate'];
export type RemoveBackgroundRequest = ToolRequests['remove-background'];
export type UpscaleRequest = ToolRequests['upscale'];

export const generatePayloadSchema = jobPayloadSchemas.generate;
export const removeBackgroundPayloadSchema = jobPayloadSchemas['remove-background'];
export const upscalePayloadSchema = jobPayloadSchemas.upscale;
export type GeneratePayload = JobPayloads['generate'];
export type RemoveBackgroundPayload = JobPayloads['remove-background'];
export type UpscalePayload = JobPayloads['upscale'];

export const aiBackgroundRequestSchema = TOOL_SCHEMAS['ai-background'].request;
export type AiBackgroundRequest = ToolRequests['ai-background'];
export type AiBackgroundPayload = JobPayloads['ai-background'];

export const eraseRequestSchema = TOOL_SCHEMAS.erase.request;
export type EraseRequest = ToolRequests['erase'];
export type ErasePayload = JobPayloads['erase'];

export const expandRequestSchema = TOOL_SCHEMAS.expand.request;
export type ExpandRequest = ToolRequests['expand'];
export type ExpandPayload = JobPayloads['expand'];
