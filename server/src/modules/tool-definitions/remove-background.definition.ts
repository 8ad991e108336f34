import { PRODUCT_PHOTO_FIELDS, productPhotoRequestSchema, removeBackgroundTool } from '@imagestudio/contracts';
import type { ToolDefinition } from './tool-definition';

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
 * Background removal: one price per image whatever the layout. Its model runs at one fixed input size whatever
 * the photo, so every job is one unit of work. Every product-photo option is checked here, before anything is
 * charged (422 naming the field); the payload carries the parsed layout and the background image's key.
 */
export const removeBackgroundDefinition: ToolDefinition<'remove-background', RemoveBackgroundParams> = {
  contract: removeBackgroundTool,
  parse(fields) {
    const record = (fields ?? {}) as Record<string, unknown>;
    productPhotoRequestSchema.parse(record);
    return storedParams(record);
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
      ...(fileKeys.background_image && { backgroundKey: fileKeys.background_image }),
    };
  },
  workUnits: () => 1,
};
