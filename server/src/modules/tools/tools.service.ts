import { JOB_MESSAGES, type JobName } from '@imagestudio/contracts';
import { validationError } from '../../lib/errors';
import { submitJob, type SubmitOutcome } from '../jobs';
import { inspectFileParts, inspectUpload, withFileFlags } from '../uploads';
import { toolDefinition, readToolSettings } from '../tool-definitions';
import type { ToolsDeps } from './tools.deps';

/** Who asks, and the request's Idempotency-Key and id. */
export interface SubmitMeta {
  userId: string;
  idempotencyKey?: string;
  requestId?: string;
}

/** A tool call's request: its fields (JSON body or multipart fields) and, for tools that take one, the image. */
export interface ToolCall {
  fields: unknown;
  image?: Buffer | null;
  fileName?: string | null;
  /** The further file parts of the contract's `fileFields` that came, by field. */
  files?: Record<string, Buffer>;
}

/**
 * POST /api/tools/<tool>: the image's presence (422), the fields through the tool's definition (422), the live
 * workers' checks, then submitJob at the definition's price. The image's own checks run inside submitJob, after
 * the cheap ones.
 */
export async function startTool(
  ctx: ToolsDeps,
  tool: JobName,
  call: ToolCall,
  meta: SubmitMeta,
): Promise<SubmitOutcome> {
  const definition = toolDefinition(tool);
  const image = definition.contract.takesImage ? call.image : null;
  if (definition.contract.takesImage && !image) throw validationError({ image: [JOB_MESSAGES.imageRequired] });
  const settings = await readToolSettings(ctx);
  const files = image ? call.files : undefined;
  const params = definition.parse(
    withFileFlags(call.fields, definition.contract.fileFields, Object.keys(files ?? {})),
    settings,
  );
  await definition.assertRunnable?.(ctx, params);
  const extras = Object.values(files ?? {});
  // The checked image's size, for the further files' check (prepareInput runs first).
  let checked: { width: number; height: number } | null = null;
  return submitJob(ctx, {
    ...meta,
    tool,
    params,
    costTenths: definition.costTenths(settings, params),
    ...(image && {
      // The further files are part of what makes two requests the same.
      rawInput: extras.length > 0 ? Buffer.concat([image, ...extras]) : image,
      inputName: call.fileName ?? null,
      prepareInput: async () => {
        const clean = await inspectUpload(image);
        definition.checkImage?.(params, clean);
        checked = clean;
        return clean;
      },
      prepareFiles: async () => {
        const parts = await inspectFileParts(files);
        if (checked) await definition.checkFiles?.(params, checked, parts);
        return parts;
      },
    }),
  });
}
