import { ComparisonSlider } from './comparison-slider';
import { useTexts } from './texts-context';

/**
 * Before/after pairs the worker's current pipelines made from the full-resolution example photos, committed in
 * client/public/examples/made/ (`npm run examples`; docs/showcase.md). Each image is there at two widths, so
 * a 2x screen gets pixels of its own: EXAMPLE_WIDTHS must stay those of worker/src/examples/make-examples.ts, which
 * example-pairs.test.tsx checks against the files.
 */
export const EXAMPLE_WIDTHS = [576, 1152] as const;

export const EXAMPLE_PAIRS = {
  /** 451x300 photo, made 1152x766. */
  chelsea: { aspect: 1152 / 766, kind: 'removeBg' },
  /** 600x400 photo, made 1152x768. */
  coffee: { aspect: 3 / 2, kind: 'removeBg' },
  /**
   * A 288 px square crop of the photo, x4 (worker/src/examples/make-examples.ts): both sides are drawn at the same
   * size, so the caption says what was enlarged to what.
   */
  motorcycle: { aspect: 1, kind: 'upscale', source: 288, factor: 4 },
} as const;

export type ExampleName = keyof typeof EXAMPLE_PAIRS;

/** The URL of one image of a pair at one of EXAMPLE_WIDTHS. */
export function exampleSrc(name: ExampleName, side: 'before' | 'after', width: number): string {
  return `/examples/made/${name}-${side}-${width}.webp`;
}

function srcSet(name: ExampleName, side: 'before' | 'after'): string {
  return EXAMPLE_WIDTHS.map((w) => `${exampleSrc(name, side, w)} ${w}w`).join(', ');
}

/**
 * A landing page's pair fills its column: the page's half of the 1200 px content width (576 px with the gap),
 * all of the width on a phone.
 */
const LANDING_SIZES = '(max-width: 767px) 100vw, (max-width: 1247px) 50vw, 576px';

/**
 * One example pair in a comparison slider with its caption. `aspect` overrides the pair's own shape where
 * several stand in a row (the home strip): the images then cover the box instead of being letterboxed, and
 * `sizes` says how wide they are drawn there. `lazy` loads them at low priority once near the viewport.
 */
export function ExamplePair({
  name,
  aspect,
  sizes = LANDING_SIZES,
  lazy = false,
}: {
  name: ExampleName;
  aspect?: number;
  sizes?: string;
  lazy?: boolean;
}) {
  const t = useTexts();
  const pair = EXAMPLE_PAIRS[name];
  const what = t(`client-tools.examples.${pair.kind}`);
  // An upscale's two sides fill the same frame: say the real sizes, not only "4x".
  const scaled =
    'source' in pair
      ? t('client-tools.examples.upscaleSizes', {
          from: `${pair.source} x ${pair.source}`,
          to: `${pair.source * pair.factor} x ${pair.source * pair.factor}`,
        })
      : null;
  return (
    <figure className="example-pair" data-testid={`example-${name}`}>
      <ComparisonSlider
        before={exampleSrc(name, 'before', EXAMPLE_WIDTHS[0])}
        after={exampleSrc(name, 'after', EXAMPLE_WIDTHS[0])}
        responsive={{ beforeSrcSet: srcSet(name, 'before'), afterSrcSet: srcSet(name, 'after'), sizes, lazy }}
        beforeLabel={t('client-tools.examples.before')}
        afterLabel={t('client-tools.examples.after')}
        label={t('client-tools.examples.compare', { what })}
        aspect={aspect ?? pair.aspect}
      />
      <figcaption>
        {what}
        {scaled ? (
          <span className="example-pair__sizes" data-testid="example-sizes">
            {scaled}
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}
