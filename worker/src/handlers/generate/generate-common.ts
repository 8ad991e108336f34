import { UnrecoverableError } from 'bullmq';
import sharp from 'sharp';
import { applyStyle, type GeneratePayload } from '@imagestudio/contracts';
import { encodeImage, type RawImage } from '../../imaging/encode';

/** What both generation backends share: the styled prompt going in, the PNG coming out. */

/** The payload's style preset applied to its prompt and negative prompt; an unknown style fails the job. */
export function styledPrompt(payload: GeneratePayload): { prompt: string; negativePrompt: string } {
  try {
    return applyStyle(payload.style, payload.prompt, payload.negativePrompt);
  } catch {
    throw new UnrecoverableError(`Unknown style "${payload.style}".`);
  }
}

/**
 * The last step of every generation backend: the image resized to the requested size when it came at another
 * one (centre-cropping any aspect difference), then a PNG with provenance XMP (`trainedAlgorithmicMedia`,
 * CreatorTool = `tool`, naming the model or pipeline that made it).
 */
export async function generatedPng(image: RawImage, width: number, height: number, tool: string): Promise<Buffer> {
  let fitted = image;
  if (image.width !== width || image.height !== height) {
    const data = await sharp(image.data, {
      raw: { width: image.width, height: image.height, channels: image.channels },
    })
      .resize(width, height, { fit: 'cover', kernel: 'lanczos3' })
      .raw()
      .toBuffer();
    fitted = { data, width, height, channels: image.channels };
  }
  return encodeImage(fitted, 'png', 'trainedAlgorithmicMedia', tool);
}
