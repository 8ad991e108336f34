import {
  JOB_MESSAGES,
  PRODUCT_PHOTO_FIELDS,
  TOOL_SCHEMAS,
  productPhotoRequestSchema,
  removeBackgroundTool,
} from '@imagestudio/contracts';
import { validationError } from '../../lib/errors';
import { toolStatus } from '../workers';
import type { ToolDefinition } from './tool-definition';
import type { ToolDefinitionsDeps } from './tool-definitions.deps';

/** The matting models a job may name (contracts: `standard`, the default, and an operator's `hq`). */
type RemoveBackgroundModel = (typeof removeBackgroundTool.models)[number];

/**
 * The options as stored on the job row and shown back: the fields that were sent (trimmed text), with the
 * format and mask_only always there as before the product-photo options. The queue payload's layout is parsed
 * again from these (a retry of an item, a row from before the options), so they stay in the request's form.
 */
export type RemoveBackgroundParams = { output_format: string; mask_only: boolean } & Record<
  string,
  string | number | boolean
>;

const BOOLEAN_FIELDS = new Set(['crop_to_subject', 'mask_only']);

/** The option fields in their stored form; a re-composition keeps its layout in this form too (jobs/composition-keep.ts). */
export function storedParams(fields: Record<string, unknown>): RemoveBackgroundParams {
  const params: Record<string, string | boolean> = { output_format: 'png', mask_only: false };
  for (const name of PRODUCT_PHOTO_FIELDS) {
    const value = fields[name];
    const text = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
    if (typeof text !== 'string' || text.trim() === '') continue;
    const v = text.trim();
    if (name === 'background_image') params[name] = true;
    else if (BOOLEAN_FIELDS.has(name)) params[name] = v.toLowerCase() === 'true' || v === '1';
    else params[name] = name === 'output_format' ? v.toLowerCase() : v;
  }
  return params as RemoveBackgroundParams;
}

/**
 * 422 (field `model`, before charging) when live workers remove backgrounds but none offers `model`. With no
 * such worker at all the tool's own check answers 503 instead. A fresh read before refusing: a worker that just
 * passed its model's start checks is seen at once.
 */
async function assertMattingModelAvailable(ctx: ToolDefinitionsDeps, model: RemoveBackgroundModel): Promise<void> {
  let status = (await toolStatus(ctx))['remove-background'];
  if (!status.models.includes(model)) status = (await toolStatus(ctx, true))['remove-background'];
  if (status.available && !status.models.includes(model))
    throw validationError({ model: [JOB_MESSAGES.modelUnavailable] });
}

/**
 * Background removal: one price per image whatever the layout. Its model runs at one fixed input size whatever
 * the photo, so every job is one unit of work. Every product-photo option is checked here, before anything is
 * charged (422 naming the field); the payload carries the parsed layout and the background image's key.
 */
export const removeBackgroundDefinition: ToolDefinition<'remove-background', RemoveBackgroundParams> = {
  contract: removeBackgroundTool,
  parse(fields) {
    const record = (fields ?? {}) as Record<string, unknown>;
    const { model } = TOOL_SCHEMAS['remove-background'].request.parse(record);
    productPhotoRequestSchema.parse(record);
    // Only a chosen hq is stored: rows of the standard model look as they did before the choice existed.
    return { ...storedParams(record), ...(model === 'hq' ? { model } : {}) };
  },
  async assertRunnable(ctx, params) {
    // Every worker runs the standard model (older ones advertise no models at all).
    if (params.model === 'hq') await assertMattingModelAvailable(ctx, 'hq');
  },
  costTenths: (settings) => settings.priceTenths['remove-background'],
  quote: (settings) => ({ count: 1, factor: null, model: null, unitTenths: settings.priceTenths['remove-background'] }),
  payload(params, inputKey, fileKeys) {
    const layout = productPhotoRequestSchema.parse(params);
    return {
      inputKey: inputKey!,
      outputFormat: layout.outputFormat,
      maskOnly: layout.maskOnly,
      layout,
      model: params.model === 'hq' ? 'hq' : 'standard',
      ...(fileKeys.background_image && { backgroundKey: fileKeys.background_image }),
    };
  },
  workUnits: () => 1,
};
