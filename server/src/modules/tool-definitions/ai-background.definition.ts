import {
  aiBackgroundPrompt,
  aiBackgroundRequestSchema,
  aiBackgroundTool,
  type AiBackgroundRequest,
} from '@imagestudio/contracts';
import type { ToolDefinition } from './tool-definition';

/**
 * AI background: one price per photo (ai_background_price); the preset is stored as chosen and sent as its
 * text. Its work is the photo's megapixels (the matting model's share; the images API's time is about constant).
 */
export const aiBackgroundDefinition: ToolDefinition<'ai-background', AiBackgroundRequest> = {
  contract: aiBackgroundTool,
  parse: (fields) => ({ ...aiBackgroundRequestSchema.parse(fields) }),
  costTenths: (settings) => settings.priceTenths['ai-background'],
  quote: (settings) => ({ count: 1, factor: null, model: null, unitTenths: settings.priceTenths['ai-background'] }),
  payload: (params, inputKey) => ({
    inputKey: inputKey!,
    prompt: aiBackgroundPrompt(params),
    size: params.size,
    outputFormat: params.output_format,
  }),
  workUnits: (job) => (job.input_width && job.input_height ? (job.input_width * job.input_height) / 1e6 : null),
};
