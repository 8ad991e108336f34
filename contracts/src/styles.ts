/**
 * Style presets for image generation: prompt templates the user picks by id. `{prompt}` is replaced by the
 * user's prompt; `negative` is added to the user's negative prompt (used when the model runs guidance).
 */
export interface StylePreset {
  id: string;
  label: string;
  prompt: string;
  negative: string;
}

export const STYLE_PRESETS = [
  { id: 'none', label: 'No style', prompt: '{prompt}', negative: '' },
  {
    id: 'photographic',
    label: 'Photographic',
    prompt: 'photograph of {prompt}, 50mm, natural light, sharp focus, highly detailed',
    negative: 'drawing, painting, illustration, cartoon, anime, blurry',
  },
  {
    id: 'cinematic',
    label: 'Cinematic',
    prompt: 'cinematic film still of {prompt}, dramatic lighting, shallow depth of field, film grain',
    negative: 'cartoon, illustration, flat lighting, blurry',
  },
  {
    id: 'digital-art',
    label: 'Digital art',
    prompt: 'digital art of {prompt}, vibrant colours, detailed, artstation',
    negative: 'photo, photograph, blurry, low quality',
  },
  {
    id: 'anime',
    label: 'Anime',
    prompt: 'anime artwork of {prompt}, studio anime, key visual, vibrant',
    negative: 'photo, realistic, 3d render',
  },
  {
    id: 'watercolor',
    label: 'Watercolour',
    prompt: 'watercolor painting of {prompt}, soft washes, paper texture, delicate',
    negative: 'photo, 3d render, harsh lines',
  },
  {
    id: 'oil-painting',
    label: 'Oil painting',
    prompt: 'oil painting of {prompt}, visible brush strokes, rich colours, canvas texture',
    negative: 'photo, 3d render, flat colours',
  },
  {
    id: '3d-render',
    label: '3D render',
    prompt: '3d render of {prompt}, octane render, soft studio lighting, highly detailed',
    negative: 'photo, painting, sketch, flat',
  },
  {
    id: 'pixel-art',
    label: 'Pixel art',
    prompt: 'pixel art of {prompt}, 16-bit, retro game sprite',
    negative: 'photo, realistic, blurry, smooth',
  },
  {
    id: 'line-art',
    label: 'Line art',
    prompt: 'line art drawing of {prompt}, clean black ink lines, white background',
    negative: 'colour, photo, shading, 3d',
  },
] as const satisfies readonly StylePreset[];

export type StyleId = (typeof STYLE_PRESETS)[number]['id'];

export const STYLE_IDS = STYLE_PRESETS.map((s) => s.id) as [StyleId, ...StyleId[]];

/** The preset with this id, or undefined. */
export function findStyle(id: string): StylePreset | undefined {
  return STYLE_PRESETS.find((s) => s.id === id);
}

/** The prompt and negative prompt the model gets for a user's prompt in a style (no style = unchanged). */
export function applyStyle(
  style: string | undefined,
  prompt: string,
  negativePrompt = '',
): { prompt: string; negativePrompt: string } {
  const preset = style ? findStyle(style) : undefined;
  if (style && !preset) throw new Error(`unknown style "${style}"`);
  if (!preset) return { prompt, negativePrompt };
  return {
    prompt: preset.prompt.replace('{prompt}', prompt),
    negativePrompt: [negativePrompt, preset.negative].filter((p) => p.trim() !== '').join(', '),
  };
}
