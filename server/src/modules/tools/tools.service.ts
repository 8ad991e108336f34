import { JOB_MESSAGES, type JobName } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { validationError } from '../../lib/errors';
import { submitJob, type SubmitOutcome } from '../jobs/submit.service';
import { inspectUpload } from '../uploads/image-inspect';
import { toolDefinition } from './definitions';
import { inspectFileParts, withFileFlags } from './file-fields';
import { readToolSettings } from './tools.settings';

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
  ctx: AppContext,
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
        return clean;
      },
      prepareFiles: () => inspectFileParts(files),
    }),
  });
}
