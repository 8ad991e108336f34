/** How a model takes latent sizes: fixed (the export's one shape) or any size in steps of `multiple`. */
export interface LatentSizing {
  /** The model's training size in latent cells (SD 1.5/Turbo: 64x64 = 512x512 px). */
  native: { height: number; width: number };
  /** Whether the UNet accepts any spatial size. */
  dynamic: boolean;
  /** Latent sizes must be multiples of this (2^downsamplings of the UNet). */
  multiple: number;
  /** Pixels per latent cell (the VAE's upsampling, 8 for SD). */
  pixelsPerLatent: number;
}

export interface SizePlan {
  latent: { height: number; width: number };
  /** The size the VAE produces. */
  generated: { width: number; height: number };
  /** The size the user asked for (the stored files' size). */
  requested: { width: number; height: number };
  /** Set when the generated image is resized (and possibly cropped) to the requested size. */
  note?: string;
}

/**
 * Maps a requested size onto what the model can generate. A dynamic UNet generates the requested size itself
 * when it is no larger than the native area and fits the size steps; otherwise it generates the requested
 * aspect ratio at about its native area (larger sizes repeat subjects in SD models) and the result is resized.
 * A fixed-shape UNet generates its one size, then the result is resized and centre-cropped.
 */
export function planSize(requested: { width: number; height: number }, sizing: LatentSizing): SizePlan {
  const px = sizing.pixelsPerLatent;
  const step = sizing.multiple * px;
  let latent: { height: number; width: number };
  if (!sizing.dynamic) {
    latent = { ...sizing.native };
  } else {
    const fits = requested.width % step === 0 && requested.height % step === 0;
    const nativeArea = sizing.native.height * sizing.native.width * px * px;
    if (fits && requested.width * requested.height <= nativeArea) {
      latent = { height: requested.height / px, width: requested.width / px };
    } else {
      const aspect = requested.width / requested.height;
      const cells = sizing.native.height * sizing.native.width;
      const round = (v: number) => Math.max(sizing.multiple, Math.round(v / sizing.multiple) * sizing.multiple);
      latent = { height: round(Math.sqrt(cells / aspect)), width: round(Math.sqrt(cells * aspect)) };
    }
  }
  const generated = { width: latent.width * px, height: latent.height * px };
  const plan: SizePlan = { latent, generated, requested: { ...requested } };
  if (generated.width !== requested.width || generated.height !== requested.height) {
    const why = sizing.dynamic ? '' : ' (the model takes only this size)';
    plan.note = `generated at ${generated.width}x${generated.height}${why} and resized to ${requested.width}x${requested.height}`;
  }
  return plan;
}
