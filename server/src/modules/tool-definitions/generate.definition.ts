import { randomInt } from 'node:crypto';
import {
  STYLE_IDS,
  findStyle,
  generateRequestSchema,
  generateTool,
  type GenerateRequest,
} from '@imagestudio/contracts';
import { validationError } from '../../lib/errors';
import { checkSize } from './tools.pricing';
import type { ToolDefinition } from './tool-definition';

const sizeOf = (size: string) => size.split('x').map(Number) as [number, number];

/** Text-to-image: costs its price per image; its work is the generated megapixels. */
export const generateDefinition: ToolDefinition<'generate', GenerateRequest> = {
  contract: generateTool,
  parse(fields, settings) {
    const input = generateRequestSchema.parse(fields);
    checkSize(settings, input.size);
    if (input.style && !findStyle(input.style))
      throw validationError({ style: [`Style must be one of ${STYLE_IDS.join(', ')}.`] });
    return { ...input };
  },
  costTenths: (settings, params) => settings.priceTenths.generate * params.count,
  quote: (settings, query) => ({
    count: query.count,
    factor: null,
    model: null,
    unitTenths: settings.priceTenths.generate,
  }),
  payload(params) {
    const [width, height] = sizeOf(params.size);
    return {
      prompt: params.prompt,
      negativePrompt: params.negative_prompt,
      style: params.style,
      count: params.count,
      width,
      height,
      // The API picks the seed when the user gave none, so the job can be reproduced from its row.
      seed: params.seed ?? randomInt(0, 2 ** 32 - 1),
    };
  },
  workUnits(job) {
    const size = /^(\d+)x(\d+)$/.exec(String(job.params.size ?? ''));
    if (!size) return null;
    return (Number(size[1]) * Number(size[2]) * (Number(job.params.count) || 1)) / 1e6;
  },
};
