import fs from 'node:fs';
import path from 'node:path';
import { render, screen } from '@testing-library/react';
import { translate } from '../lib/i18n';
import { EXAMPLE_PAIRS, EXAMPLE_WIDTHS, ExamplePair, exampleSrc, type ExampleName } from './example-pairs';
import { TextsProvider } from './texts-context';

/**
 * The pages ask for the files `npm run examples` made (client/public/examples/made/, listed in its manifest), at
 * the widths and shapes they are: a renamed file or a changed width would leave a broken image on the home page.
 */
const PUBLIC = path.resolve(__dirname, '..', '..', 'public');
const manifest = JSON.parse(fs.readFileSync(path.join(PUBLIC, 'examples', 'made', 'manifest.json'), 'utf8')) as {
  files: Record<string, { width: number; height: number }>;
};
const NAMES = Object.keys(EXAMPLE_PAIRS) as ExampleName[];

describe('example pairs', () => {
  it('name exactly the files that were made, at their widths and shape', () => {
    const asked = NAMES.flatMap((name) =>
      (['before', 'after'] as const).flatMap((side) =>
        EXAMPLE_WIDTHS.map((width) => ({ name, width, file: exampleSrc(name, side, width) })),
      ),
    );
    expect(asked.map(({ file }) => path.basename(file)).sort()).toEqual(Object.keys(manifest.files).sort());
    for (const { name, width, file } of asked) {
      expect(fs.existsSync(path.join(PUBLIC, file))).toBe(true);
      const made = manifest.files[path.basename(file)]!;
      expect(made.width).toBe(width);
      // The frame takes the pair's aspect: a wrong one letterboxes the picture or crops it.
      expect(Math.abs(made.width / made.height - EXAMPLE_PAIRS[name].aspect)).toBeLessThan(0.01);
    }
  });

  it('offers both widths to the browser, lazily and at low priority only where asked', () => {
    render(
      <TextsProvider t={(key, vars) => translate({}, key, vars)}>
        <ExamplePair name="chelsea" />
        <ExamplePair name="motorcycle" sizes="400px" lazy />
      </TextsProvider>,
    );
    const [landing, strip] = screen.getAllByTestId('compare');
    for (const img of landing!.querySelectorAll('img')) {
      expect(img.getAttribute('srcset')).toMatch(/-576\.webp 576w, .*-1152\.webp 1152w$/);
      expect(img.getAttribute('sizes')).toContain('576px');
      expect(img.getAttribute('loading')).toBeNull();
    }
    const stripImages = [...strip!.querySelectorAll('img')];
    expect(stripImages.map((img) => img.getAttribute('src'))).toEqual([
      '/examples/made/motorcycle-after-576.webp',
      '/examples/made/motorcycle-before-576.webp',
    ]);
    for (const img of stripImages) {
      expect(img.getAttribute('sizes')).toBe('400px');
      expect(img.getAttribute('loading')).toBe('lazy');
      expect(img.getAttribute('fetchpriority')).toBe('low');
    }
  });

  it("say the upscale's real sizes: the after side is the crop at the factor the caption claims", () => {
    const pair = EXAMPLE_PAIRS.motorcycle;
    // The widest file made of the after side is the crop enlarged by the factor, not resized for the page.
    const widest = Math.max(...EXAMPLE_WIDTHS);
    expect(manifest.files[path.basename(exampleSrc('motorcycle', 'after', widest))]!.width).toBe(
      pair.source * pair.factor,
    );
    render(
      <TextsProvider t={(key, vars) => translate({}, key, vars)}>
        <ExamplePair name="motorcycle" />
        <ExamplePair name="coffee" />
      </TextsProvider>,
    );
    const [sizes, ...more] = screen.getAllByTestId('example-sizes');
    expect(more).toHaveLength(0);
    expect(sizes!.textContent).toBe(
      'From a 288 x 288 px crop to 1152 x 1152 px: both sides are drawn at the same size here.',
    );
    expect(screen.getByTestId('example-motorcycle').querySelector('figcaption')?.textContent).toContain(
      `Enlarged ${pair.factor}x by our model`,
    );
  });
});
