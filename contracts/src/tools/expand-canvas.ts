/**
 * The Expand tool's canvas: which larger frame a photo gets and where the photo sits in it. The server checks a
 * photo with it before charging, the worker builds the job's canvas with it and the client draws its preview
 * with it, so all three agree to the pixel.
 */

/** The target shapes, width to height. */
export const EXPAND_ASPECTS = {
  '1:1': [1, 1],
  '4:5': [4, 5],
  '3:2': [3, 2],
  '16:9': [16, 9],
  '9:16': [9, 16],
} as const;
export type ExpandAspect = keyof typeof EXPAND_ASPECTS;
export const EXPAND_ASPECT_IDS = Object.keys(EXPAND_ASPECTS) as ExpandAspect[];

/** Where the photo sits on the canvas; the new area is on the other side(s). */
export const EXPAND_POSITIONS = ['center', 'left', 'right', 'top', 'bottom'] as const;
export type ExpandPosition = (typeof EXPAND_POSITIONS)[number];

/** The factors the client offers; the API takes any factor from `min` to `max`. */
export const EXPAND_FACTORS = [1.25, 1.5, 2] as const;
export const EXPAND_FACTOR_RANGE = { min: 1.1, max: 3 } as const;

/**
 * The longest side an expanded image may have. The result keeps the photo's own resolution (its pixels are put
 * back unscaled), so a canvas past this is refused rather than shrunk.
 */
export const EXPAND_MAX_SIDE = 4096;

/** The canvas's new area must be at least this share of its side, or the photo already has the shape. */
const MIN_GROWTH = 0.01;

/** A canvas choice: a target shape or a factor (exactly one), and the photo's place. */
export interface ExpandChoice {
  aspect?: ExpandAspect;
  factor?: number;
  position: ExpandPosition;
}

/** The canvas in the photo's pixels, and the photo's top-left corner on it. */
export interface ExpandCanvas {
  width: number;
  height: number;
  left: number;
  top: number;
}

/**
 * The canvas for a photo. A shape gives the smallest canvas of that shape that holds the photo (it grows on one
 * axis); a factor multiplies both sides. The position places the photo along each axis that grows: `left`/`right`
 * and `top`/`bottom` put it against that edge, and on an axis the position does not name it is centred (so
 * `top` with a wider canvas is the same as `center`).
 */
export function expandCanvas(photo: { width: number; height: number }, choice: ExpandChoice): ExpandCanvas {
  let width: number;
  let height: number;
  if (choice.aspect) {
    const [w, h] = EXPAND_ASPECTS[choice.aspect];
    width = Math.max(photo.width, Math.round((photo.height * w) / h));
    height = Math.max(photo.height, Math.round((photo.width * h) / w));
  } else {
    const factor = choice.factor ?? 1;
    width = Math.round(photo.width * factor);
    height = Math.round(photo.height * factor);
  }
  const spareX = width - photo.width;
  const spareY = height - photo.height;
  const p = choice.position;
  const left = p === 'left' ? 0 : p === 'right' ? spareX : Math.floor(spareX / 2);
  const top = p === 'top' ? 0 : p === 'bottom' ? spareY : Math.floor(spareY / 2);
  return { width, height, left, top };
}

export const EXPAND_MESSAGES = {
  aspectOrFactor: 'Give an aspect or a factor, exactly one of the two.',
  aspect: `Aspect must be one of ${EXPAND_ASPECT_IDS.join(', ')}.`,
  factor: `Factor must be a number from ${EXPAND_FACTOR_RANGE.min} to ${EXPAND_FACTOR_RANGE.max}.`,
  position: `Position must be one of ${EXPAND_POSITIONS.join(', ')}.`,
  sameShape: 'The photo already has this shape: choose another shape or a factor.',
  photoTooLarge: (size: string) =>
    `The photo is already ${size} pixels: an expanded image can be at most ${EXPAND_MAX_SIDE} pixels on its long side.`,
  canvasTooLarge: (size: string) =>
    `The expanded image would be ${size} pixels: at most ${EXPAND_MAX_SIDE} on its long side. Choose a smaller factor or another shape.`,
} as const;

/**
 * Why a photo cannot be expanded with this choice (the user's message), or null when it can: the photo is at the
 * size limit already, the canvas would pass it, or there is (almost) nothing to add.
 */
export function expandRefusal(photo: { width: number; height: number }, choice: ExpandChoice): string | null {
  if (Math.max(photo.width, photo.height) >= EXPAND_MAX_SIDE)
    return EXPAND_MESSAGES.photoTooLarge(`${photo.width}x${photo.height}`);
  const canvas = expandCanvas(photo, choice);
  if (Math.max(canvas.width, canvas.height) > EXPAND_MAX_SIDE)
    return EXPAND_MESSAGES.canvasTooLarge(`${canvas.width}x${canvas.height}`);
  const growsX = canvas.width - photo.width >= canvas.width * MIN_GROWTH;
  const growsY = canvas.height - photo.height >= canvas.height * MIN_GROWTH;
  return growsX || growsY ? null : EXPAND_MESSAGES.sameShape;
}
