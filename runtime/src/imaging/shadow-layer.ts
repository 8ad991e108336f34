import sharp from 'sharp';

/** What the shadows (drop, contact) share: their layer, their colour and how far a blur reaches. */

/** An RGBA layer placed on the canvas at left, top. */
export interface Layer {
  data: Buffer;
  width: number;
  height: number;
  left: number;
  top: number;
}

/** How many sigmas out a Gaussian blur still shows: the room a blurred shape needs around it. */
export const BLUR_REACH_SIGMAS = 3;
/** The smallest blur sigma (px) a shadow gets, so even a tiny subject's shadow is soft. */
export const MIN_SHADOW_SIGMA = 0.5;

const SHADOW_COLOUR = { r: 0, g: 0, b: 0 };

/** A shadow-coloured (black) RGBA layer with this alpha. */
export function shadowWithAlpha(alpha: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: SHADOW_COLOUR } })
    .joinChannel(alpha, { raw: { width, height, channels: 1 } })
    .raw()
    .toBuffer();
}
