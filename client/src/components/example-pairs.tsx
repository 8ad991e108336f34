import { useStore } from '../stores';
import { ComparisonSlider } from './comparison-slider';

/**
 * Before/after pairs made by the product's own models from the example photos (`npm run examples`, run
 * before every client build; worker/src/examples/make-examples.ts writes them to /examples/made/).
 */
export const EXAMPLE_PAIRS = {
  chelsea: {
    before: '/examples/chelsea.webp',
    after: '/examples/made/chelsea-no-background.webp',
    aspect: 4 / 3,
    kind: 'removeBg',
  },
  coffee: {
    before: '/examples/coffee.webp',
    after: '/examples/made/coffee-no-background.webp',
    aspect: 4 / 3,
    kind: 'removeBg',
  },
  motorcycle: {
    before: '/examples/made/motorcycle-before.webp',
    after: '/examples/made/motorcycle-x4.webp',
    aspect: 1,
    kind: 'upscale',
  },
} as const;

export type ExampleName = keyof typeof EXAMPLE_PAIRS;

/**
 * One example pair in a comparison slider with its caption. `aspect` overrides the pair's own shape where
 * several stand in a row (the home strip): the images then cover the box instead of being letterboxed.
 */
export function ExamplePair({ name, aspect }: { name: ExampleName; aspect?: number }) {
  const { t } = useStore();
  const pair = EXAMPLE_PAIRS[name];
  const what = t(`client-tools.examples.${pair.kind}`);
  return (
    <figure className="example-pair" data-testid={`example-${name}`}>
      <ComparisonSlider
        before={pair.before}
        after={pair.after}
        beforeLabel={t('client-tools.examples.before')}
        afterLabel={t('client-tools.examples.after')}
        label={t('client-tools.examples.compare', { what })}
        aspect={aspect ?? pair.aspect}
      />
      <figcaption>{what}</figcaption>
    </figure>
  );
}
