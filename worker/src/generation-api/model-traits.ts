/**
 * What a hosted images model accepts. OpenAI's models are known by name; any other model (a self-hosted
 * server speaking the same API) is sent the requested size and a seed, and taught otherwise by its replies:
 * a 400 naming `n` makes it a one-image-per-call model, one naming `seed` stops sending seeds.
 */
export interface ModelTraits {
  /** The sizes it generates, when it allows only some; unset = any size is sent as asked. */
  sizes?: readonly (readonly [number, number])[];
  /** It takes only `n: 1`: one call per image. */
  singleImage: boolean;
  /** It takes a `seed`. */
  seed: boolean;
}

const KNOWN: { pattern: RegExp; traits: ModelTraits }[] = [
  {
    pattern: /^gpt-image-/,
    traits: {
      sizes: [
        [1024, 1024],
        [1536, 1024],
        [1024, 1536],
      ],
      singleImage: false,
      seed: false,
    },
  },
  {
    pattern: /^dall-e-3$/,
    traits: {
      sizes: [
        [1024, 1024],
        [1792, 1024],
        [1024, 1792],
      ],
      singleImage: true,
      seed: false,
    },
  },
  {
    pattern: /^dall-e-2$/,
    traits: {
      sizes: [
        [256, 256],
        [512, 512],
        [1024, 1024],
      ],
      singleImage: false,
      seed: false,
    },
  },
];

export function modelTraits(model: string): ModelTraits {
  const known = KNOWN.find((k) => k.pattern.test(model));
  return known ? { ...known.traits } : { singleImage: false, seed: true };
}

/**
 * The size to ask for: the requested one when the model takes any, else the allowed size closest in aspect
 * ratio, then in area (the result is resized to the request afterwards).
 */
export function apiSize(traits: ModelTraits, width: number, height: number): { width: number; height: number } {
  if (!traits.sizes) return { width, height };
  const aspect = Math.log(width / height);
  const area = Math.log(width * height);
  const score = ([w, h]: readonly [number, number]) =>
    [Math.abs(Math.log(w / h) - aspect), Math.abs(Math.log(w * h) - area)] as const;
  const best = [...traits.sizes].sort((a, b) => {
    const [sa, sb] = [score(a), score(b)];
    return sa[0] - sb[0] || sa[1] - sb[1];
  })[0]!;
  return { width: best[0], height: best[1] };
}
