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
export type JobPayloads = { [N in JobName]: z.infer<SchemasOf<N>['payload']> };
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
