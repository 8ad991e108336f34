import sharp from 'sharp';
import { expandCanvas, expandRefusal, type ExpandCanvas, type ExpandChoice } from '@imagestudio/contracts';
import { type MaskedEditOptions, maskedEdit } from '../generation-api/masked-edit';
import { type DecodedImage, ImageInputError, decodeImage } from '../imaging/decode';
import { encodeImage } from '../imaging/encode';
import type { PipelineResult } from '../handlers/job-io';

/**
 * Expand from the uploaded photo to encoded bytes: the photo is placed on its larger canvas (expand-canvas.ts in
 * the contracts), the images API paints the new area (its edit call, masked to exactly that area), and the
 * photo's own pixels are put back where they were, so the API can change nothing of the photo itself.
 */

/**
 * The seam's feather, in photo pixels: along each edge of the photo that meets new area, the outermost
 * FEATHER_PX pixels take a falling share of the painted picture (4/5, 3/5, 2/5, 1/5 from the edge in), so the
 * join shows no hard line. Every other pixel of the photo's area is the input's, bit for bit.
 */
export const FEATHER_PX = 4;

interface ExpandOptions {
  choice: ExpandChoice;
  prompt: string;
  /** The size to ask of the API for a canvas of this size (the result keeps the photo's resolution). */
  apiSize: MaskedEditOptions['apiSize'];
  edit: MaskedEditOptions['edit'];
  outputFormat: 'png' | 'webp' | 'jpeg';
}

type Step = (stage: string) => Promise<void>;
type Frame = { width: number; height: number; left: number; top: number };

/**
 * Where the canvas sits in the picture sent to the API: the smallest frame of the API size's shape that holds
 * the canvas, the canvas centred in it. A model that takes only some shapes then paints the canvas undistorted;
 * the frame's margin is painted too and cut away afterwards.
 */
function apiFrame(canvas: { width: number; height: number }, api: { width: number; height: number }): Frame {
  const shape = api.width / api.height;
  const width = Math.max(canvas.width, Math.round(canvas.height * shape));
  const height = Math.max(canvas.height, Math.round(canvas.width / shape));
  return {
    width,
    height,
    left: Math.floor((width - canvas.width) / 2),
    top: Math.floor((height - canvas.height) / 2),
  };
}

/**
 * The picture for the API and its keep-map (255 on the photo, 0 on everything to paint), both at the frame's
 * size. The new area starts as copies of the photo's edge pixels rather than black, so a model that reads what
 * lies under the mask starts from the photo's own colours.
 */
async function editInput(image: DecodedImage, at: { left: number; top: number }, frame: Frame) {
  const { width, height } = image;
  const data = await sharp(image.data, { raw: { width, height, channels: 4 } })
    .extend({
      left: at.left,
      top: at.top,
      right: frame.width - at.left - width,
      bottom: frame.height - at.top - height,
      extendWith: 'copy',
    })
    .raw()
    .toBuffer();
  const keep = Buffer.alloc(frame.width * frame.height);
  for (let y = 0; y < height; y++)
    keep.fill(255, (at.top + y) * frame.width + at.left, (at.top + y) * frame.width + at.left + width);
  const picture: DecodedImage = { ...image, data, width: frame.width, height: frame.height };
  return { picture, keep };
}

/** The canvas's part of the painted frame (raw RGB). */
function cropCanvas(painted: Buffer, frame: Frame, canvas: ExpandCanvas): Buffer {
  const out = Buffer.alloc(canvas.width * canvas.height * 3);
  for (let y = 0; y < canvas.height; y++) {
    const from = ((frame.top + y) * frame.width + frame.left) * 3;
    painted.copy(out, y * canvas.width * 3, from, from + canvas.width * 3);
  }
  return out;
}

/**
 * The painted canvas with the photo put back at its place: opaque new area, the photo's own pixels (and alpha,
 * when it has one) elsewhere, blended with the painting only within FEATHER_PX of an edge that meets new area.
 * `painted` (raw RGB of the canvas, the caller's own copy) is written over when the photo has no alpha.
 */
function putPhotoBack(image: DecodedImage, painted: Buffer, canvas: ExpandCanvas): { data: Buffer; channels: 3 | 4 } {
  const channels = image.hasAlpha ? 4 : 3;
  // The painting first (opaque), then the photo over it.
  let out = painted;
  if (channels === 4) {
    out = Buffer.alloc(canvas.width * canvas.height * 4, 255);
    for (let i = 0; i < canvas.width * canvas.height; i++) {
      out[i * 4] = painted[i * 3]!;
      out[i * 4 + 1] = painted[i * 3 + 1]!;
      out[i * 4 + 2] = painted[i * 3 + 2]!;
    }
  }
  // Distance to an edge of the photo that meets new area; an edge on the canvas's own border has no seam.
  const open = {
    left: canvas.left > 0,
    right: canvas.left + image.width < canvas.width,
    top: canvas.top > 0,
    bottom: canvas.top + image.height < canvas.height,
  };
  const far = Number.POSITIVE_INFINITY;
  for (let y = 0; y < image.height; y++) {
    const dy = Math.min(open.top ? y : far, open.bottom ? image.height - 1 - y : far);
    for (let x = 0; x < image.width; x++) {
      const d = Math.min(dy, open.left ? x : far, open.right ? image.width - 1 - x : far);
      // The painting's share, in fifths (FEATHER_PX + 1): 4 at the edge, 0 from FEATHER_PX pixels in.
      const share = d < FEATHER_PX ? FEATHER_PX - d : 0;
      const src = (y * image.width + x) * 4;
      const dst = ((canvas.top + y) * canvas.width + canvas.left + x) * channels;
      for (let c = 0; c < 3; c++) {
        const own = image.data[src + c]!;
        out[dst + c] =
          share === 0 ? own : Math.round((own * (FEATHER_PX + 1 - share) + out[dst + c]! * share) / (FEATHER_PX + 1));
      }
      if (channels === 4) out[dst + 3] = image.data[src + 3]!;
    }
  }
  return { data: out, channels };
}

/** Decode -> canvas -> the API's painting of the new area -> the photo put back -> encode. */
export async function expandImage(input: Buffer, options: ExpandOptions, step: Step = async () => undefined) {
  const timings: Record<string, number> = {};
  let t = performance.now();
  const image = await decodeImage(input);
  // The server checked the photo before charging; this covers a job run again from a stored input.
  const refusal = expandRefusal(image, options.choice);
  if (refusal) throw new ImageInputError(refusal);
  const canvas = expandCanvas(image, options.choice);
  const api = options.apiSize(canvas.width, canvas.height);
  const frame = apiFrame(canvas, api);
  const { picture, keep } = await editInput(
    image,
    { left: frame.left + canvas.left, top: frame.top + canvas.top },
    frame,
  );
  timings.decode = performance.now() - t;
  await step('prepared');
  t = performance.now();
  // The frame already has the API size's shape: it is asked for that size, not one chosen for the frame again.
  const painted = await maskedEdit(picture, keep, { prompt: options.prompt, apiSize: () => api, edit: options.edit });
  timings.request = performance.now() - t;
  await step('inferred');
  t = performance.now();
  const { data, channels } = putPhotoBack(image, cropCanvas(painted.data, frame, canvas), canvas);
  const encoded = await encodeImage(
    { data, width: canvas.width, height: canvas.height, channels, icc: image.icc },
    options.outputFormat,
    'compositeWithTrainedAlgorithmicMedia',
    'Image Studio expand',
  );
  timings.encode = performance.now() - t;
  await step('encoded');
  return { data: encoded, width: canvas.width, height: canvas.height, timings } satisfies PipelineResult;
}
