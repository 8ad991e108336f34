import fs from 'node:fs';
import sharp from 'sharp';
import {
  DEFAULT_PRODUCT_PHOTO_LAYOUT,
  productPhotoRequestSchema,
  type ProductPhotoLayout,
} from '@imagestudio/contracts';
import { fromProjectRoot } from '../root';
import { composeProductPhoto, ComposeInputError, type ComposeInput } from './compose';
import type { RawImage } from './encode';
import { findSubjectBox, type Matte } from './subject-box';

/** The provenance the engine writes into each result; any tool name does here. */
const provenance = { source: 'compositeWithTrainedAlgorithmicMedia', tool: 'test' } as const;

/**
 * The engine on real photos: the coffee photo with its real ISNet matte (the worker's golden mask), enlarged
 * for the big layouts, and the site's cat example as a background image.
 */
const fixture = (p: string) => fs.readFileSync(fromProjectRoot(p));
const COFFEE = fixture('worker/src/test-support/fixtures/coffee-300.png');
const COFFEE_MATTE = fixture('worker/src/test-support/fixtures/coffee-300-mask.png');
const CAT = fixture('client/public/examples/chelsea.webp');

let fg: RawImage;
let matte: Matte;
let big: { fg: RawImage; matte: Matte };

const layoutOf = (fields: Record<string, unknown>): ProductPhotoLayout => productPhotoRequestSchema.parse(fields);

async function rawOf(data: Buffer): Promise<{ data: Buffer; width: number; height: number; channels: number }> {
  const { data: px, info } = await sharp(data).raw().toBuffer({ resolveWithObject: true });
  return { data: px, width: info.width, height: info.height, channels: info.channels };
}

function pixel(img: { data: Buffer; width: number; channels: number }, x: number, y: number): number[] {
  const i = (y * img.width + x) * img.channels;
  return Array.from(img.data.subarray(i, i + img.channels));
}

const compose = (layout: ProductPhotoLayout, extra: Partial<ComposeInput> = {}) =>
  composeProductPhoto({ provenance, foreground: fg, matte, layout, ...extra });

beforeAll(async () => {
  const rgba = await sharp(COFFEE).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  fg = { data: rgba.data, width: rgba.info.width, height: rgba.info.height, channels: 4 };
  const m = await sharp(COFFEE_MATTE).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  matte = { data: m.data, width: m.info.width, height: m.info.height };
  // 3000x2000 (6 MP): the layouts that scale down.
  const bigFg = await sharp(COFFEE).resize(3000, 2000).ensureAlpha().raw().toBuffer();
  const bigMatte = await sharp(COFFEE_MATTE).resize(3000, 2000).extractChannel(0).raw().toBuffer();
  big = {
    fg: { data: bigFg, width: 3000, height: 2000, channels: 4 },
    matte: { data: bigMatte, width: 3000, height: 2000 },
  };
});

describe('composeProductPhoto', () => {
  it("gives today's plain cut-out with the default layout: same size, alpha = matte, colour zeroed where transparent", async () => {
    const out = await compose(DEFAULT_PRODUCT_PHOTO_LAYOUT);
    expect([out.width, out.height, out.format, out.contentType]).toEqual([300, 200, 'png', 'image/png']);
    // Told the image is opaque, the engine skips looking at its alpha and writes the same file.
    expect((await compose(DEFAULT_PRODUCT_PHOTO_LAYOUT, { opaque: true })).data.equals(out.data)).toBe(true);
    const meta = await sharp(out.data).metadata();
    expect([meta.channels, meta.isPalette]).toEqual([4, false]);
    expect(meta.xmp?.toString()).toContain('compositeWithTrainedAlgorithmicMedia');
    const px = await rawOf(out.data);
    const expected = Buffer.alloc(300 * 200 * 4);
    for (let i = 0; i < 300 * 200; i++) {
      const a = matte.data[i]!;
      expected.set(a === 0 ? [0, 0, 0, 0] : [fg.data[i * 4]!, fg.data[i * 4 + 1]!, fg.data[i * 4 + 2]!, a], i * 4);
    }
    expect(px.data.equals(expected)).toBe(true);
    expect(out.subjectBox).toEqual(await findSubjectBox(matte));
  });

  it('crops to the subject: the result is the subject box, with its margin', async () => {
    const box = (await findSubjectBox(matte))!;
    const out = await compose(layoutOf({ crop_to_subject: 'true' }));
    expect([out.width, out.height]).toEqual([box.width, box.height]);
    expect(out.subjectBox).toEqual({ left: 0, top: 0, width: box.width, height: box.height });
    // Pixel for pixel the same as the cut-out's box.
    const full = await rawOf((await compose(DEFAULT_PRODUCT_PHOTO_LAYOUT)).data);
    const cropped = await rawOf(out.data);
    expect(pixel(cropped, 20, 20)).toEqual(pixel(full, box.left + 20, box.top + 20));

    const framed = await compose(layoutOf({ crop_to_subject: 'true', margin: '20px 10%' }));
    const w = Math.round(box.width / 0.8);
    expect(Math.abs(framed.width - w)).toBeLessThanOrEqual(1);
    expect(framed.height).toBe(box.height + 40);
    expect(framed.subjectBox!.top).toBe(20);
    expect(Math.abs(framed.subjectBox!.left - 0.1 * framed.width)).toBeLessThanOrEqual(1);
    const f = await rawOf(framed.data);
    expect(pixel(f, 2, 2)).toEqual([0, 0, 0, 0]);
  });

  it('makes 4:5 at max_side 1350 a 1080x1350 picture with the subject centred inside the margin', async () => {
    const out = await composeProductPhoto({
      provenance,
      ...big,
      foreground: big.fg,
      layout: layoutOf({
        crop_to_subject: 'true',
        canvas: '4:5',
        max_side: '1350',
        margin: '5%',
        background_color: 'white',
      }),
    });
    expect([out.width, out.height, out.format]).toEqual([1080, 1350, 'png']);
    const s = out.subjectBox!;
    // The subject (wider than 4:5) fills the inner width: 1080 - 2 x 54.
    expect(Math.abs(s.left - 54)).toBeLessThanOrEqual(1);
    expect(Math.abs(s.left + s.width - (1080 - 54))).toBeLessThanOrEqual(1);
    expect(Math.abs(s.top + s.height / 2 - 675)).toBeLessThanOrEqual(1);
    const px = await rawOf(out.data);
    expect(px.channels).toBe(3);
    // The box measured on the result's own matte (the same layout, mask only) agrees within a pixel.
    const mask = await composeProductPhoto({
      provenance,
      foreground: big.fg,
      matte: big.matte,
      layout: layoutOf({ crop_to_subject: 'true', canvas: '4:5', max_side: '1350', margin: '5%', mask_only: 'true' }),
    });
    const m = await sharp(mask.data).extractChannel(0).raw().toBuffer();
    const measured = (await findSubjectBox({ data: m, width: 1080, height: 1350 }))!;
    for (const k of ['left', 'top', 'width', 'height'] as const)
      expect(Math.abs(measured[k] - s[k])).toBeLessThanOrEqual(1);
  });

  it('scales the subject up to fill a fixed canvas, at the asked position', async () => {
    const out = await compose(
      layoutOf({ crop_to_subject: 'true', canvas: '800x600', margin: '0', position: '0% 100%' }),
    );
    expect([out.width, out.height]).toEqual([800, 600]);
    const s = out.subjectBox!;
    expect(s.left).toBe(0);
    expect(s.top + s.height).toBe(600);
    expect(Math.max(s.width / 800, s.height / 600)).toBeCloseTo(1, 2);
  });

  it('fills the background with the exact colour, alpha kept in PNG, WebP and AVIF', async () => {
    for (const [color, rgba] of [
      ['#2a7', [0x22, 0xaa, 0x77, 255]],
      ['rebeccapurple', [102, 51, 153, 255]],
      ['#ff000080', [255, 0, 0, 128]],
    ] as const) {
      const out = await compose(layoutOf({ background_color: color }));
      const px = await rawOf(out.data);
      const corner = pixel(px, 2, 2);
      expect(rgba[3] === 255 ? [...corner, 255] : corner).toEqual([...rgba]);
      // The middle of the cup is the photo's own pixel.
      expect(pixel(px, 150, 90).slice(0, 3)).toEqual(pixel({ ...fg }, 150, 90).slice(0, 3));
    }
    const webp = await rawOf((await compose(layoutOf({ background_color: '#ff000080', output_format: 'webp' }))).data);
    expect(pixel(webp, 2, 2)).toEqual([255, 0, 0, 128]);
    const avif = await compose(layoutOf({ background_color: '#ff000080', output_format: 'avif', quality: '90' }));
    expect((await sharp(avif.data).metadata()).format).toBe('heif');
    const a = pixel(await rawOf(avif.data), 2, 2);
    expect(a).toHaveLength(4);
    expect(Math.abs(a[3]! - 128)).toBeLessThanOrEqual(3);
  });

  it('cover-fits a background image to the canvas', async () => {
    const out = await compose(layoutOf({ background_image: true, crop_to_subject: 'true', canvas: '400x400' }), {
      backgroundImage: CAT,
    });
    const expected = await rawOf(await sharp(CAT).resize(400, 400, { fit: 'cover' }).ensureAlpha().png().toBuffer());
    const px = await rawOf(out.data);
    expect(pixel(px, 3, 3)).toEqual(pixel(expected, 3, 3).slice(0, 3));
    expect(pixel(px, 396, 396)).toEqual(pixel(expected, 396, 396).slice(0, 3));
    await expect(compose(layoutOf({ background_image: true }))).rejects.toThrow(ComposeInputError);
    await expect(
      compose(layoutOf({ background_image: true }), { backgroundImage: Buffer.from('not an image') }),
    ).rejects.toMatchObject({ code: 'backgroundImageUnreadable' });
  });

  it('blurs the original background and keeps the subject sharp', async () => {
    const out = await compose(layoutOf({ background_blur: '30' }));
    expect(out.format).toBe('png');
    const px = await rawOf(out.data);
    expect(px.channels).toBe(3);
    const src = { data: fg.data, width: 300, channels: 4 };
    // Opaque subject pixels are the photo's own.
    expect(pixel(px, 150, 90)).toEqual(pixel(src, 150, 90).slice(0, 3));
    // The background is smoother than the photo's: less difference between neighbours in a corner patch.
    const roughness = (img: { data: Buffer; width: number; channels: number }) => {
      let sum = 0;
      for (let y = 150; y < 195; y++)
        for (let x = 5; x < 60; x++) sum += Math.abs(pixel(img, x, y)[1]! - pixel(img, x + 1, y)[1]!);
      return sum;
    };
    expect(roughness(px)).toBeLessThan(roughness(src) / 3);
    // Scaled down, the background keeps its colours near the subject too: no dark holes where the matte left no
    // weight (the wood at the right is about 180, 95, 45).
    const small = await composeProductPhoto({
      provenance,
      foreground: {
        data: await sharp(COFFEE).resize(1200, 800).raw().toBuffer(),
        width: 1200,
        height: 800,
        channels: 3,
      },
      matte: await sharp(COFFEE_MATTE).resize(1200, 800).png().toBuffer(),
      layout: layoutOf({ background_blur: '15', max_side: '600' }),
    });
    const smallPx = await rawOf(small.data);
    const blurredPhoto = await rawOf(await sharp(COFFEE).resize(600, 400).blur(9).png().toBuffer());
    const sum = (p: number[]) => p[0]! + p[1]! + p[2]!;
    for (const [x, y] of [
      [570, 380],
      [585, 250],
      [20, 380],
    ] as const)
      expect([x, y, sum(pixel(smallPx, x, y)) > 0.6 * sum(pixel(blurredPhoto, x, y))]).toEqual([x, y, true]);
    // Mirrored past the input's edges (a wide margin), the subject leaves no ghost: its own pixels take no part in
    // the background, so painted green they change nothing outside the subject's box (the cup's white, the saucer's
    // red or the green, nowhere).
    const wideLayout = layoutOf({ background_blur: '40', crop_to_subject: 'true', canvas: '1:1', margin: '20%' });
    const painted = Buffer.from(fg.data);
    for (let i = 0; i < 300 * 200; i++) if (matte.data[i]! > 0) painted.set([0, 255, 0], i * 4);
    const wideOut = await compose(wideLayout);
    const wide = await rawOf(wideOut.data);
    const paintedWide = await rawOf((await compose(wideLayout, { foreground: { ...fg, data: painted } })).data);
    const box = wideOut.subjectBox!;
    let changed = 0;
    for (let y = 0; y < wide.height; y++)
      for (let x = 0; x < wide.width; x++) {
        const near =
          x >= box.left - 3 && x < box.left + box.width + 3 && y >= box.top - 3 && y < box.top + box.height + 3;
        if (!near && pixel(wide, x, y).join() !== pixel(paintedWide, x, y).join()) changed += 1;
      }
    expect(changed).toBe(0);
  });

  it('puts a shadow under the subject: darker just below its base than beside it', async () => {
    for (const shadow of ['drop', 'contact']) {
      const out = await compose(
        layoutOf({ crop_to_subject: 'true', canvas: '600x600', margin: '15%', background_color: 'white', shadow }),
      );
      const px = await rawOf(out.data);
      const s = out.subjectBox!;
      const cx = Math.round(s.left + s.width / 2);
      const below = pixel(px, cx, s.top + s.height + 3)[0]!;
      const beside = pixel(px, 20, s.top + s.height + 3)[0]!;
      expect([shadow, beside]).toEqual([shadow, 255]);
      expect([shadow, below]).toEqual([shadow, expect.any(Number)]);
      expect(below).toBeLessThan(235);
    }
    // The shadow follows the matte, whatever the subject's colours (here pure blue).
    const blue = Buffer.alloc(300 * 200 * 3);
    for (let i = 0; i < 300 * 200; i++) blue[i * 3 + 2] = 255;
    for (const shadow of ['drop', 'contact']) {
      const out = await compose(
        layoutOf({ crop_to_subject: 'true', canvas: '600x600', margin: '15%', background_color: 'white', shadow }),
        { foreground: { data: blue, width: 300, height: 200, channels: 3 } },
      );
      const s = out.subjectBox!;
      const below = pixel(await rawOf(out.data), Math.round(s.left + s.width / 2), s.top + s.height + 3)[0]!;
      expect([shadow, below < 235]).toEqual([shadow, true]);
    }
    // On a transparent canvas the shadow is a semi-transparent black, kept in the PNG.
    const clear = await compose(
      layoutOf({ crop_to_subject: 'true', canvas: '600x600', margin: '15%', shadow: 'contact', shadow_opacity: '0.8' }),
    );
    const px = await rawOf(clear.data);
    const s = clear.subjectBox!;
    const p = pixel(px, Math.round(s.left + s.width / 2), s.top + s.height + 2);
    expect(p[3]).toBeGreaterThan(40);
    expect(p.slice(0, 3)).toEqual([0, 0, 0]);
    expect(pixel(px, 5, 5)).toEqual([0, 0, 0, 0]);
  });

  it('chooses PNG when transparency is left and JPEG when not, and honours quality', async () => {
    expect((await compose(layoutOf({ output_format: 'auto' }))).format).toBe('png');
    expect((await compose(layoutOf({ output_format: 'auto', background_color: '#ffffff80' }))).format).toBe('png');
    const white = await compose(layoutOf({ output_format: 'auto', background_color: 'white' }));
    expect([white.format, white.contentType]).toEqual(['jpeg', 'image/jpeg']);
    expect((await sharp(white.data).metadata()).format).toBe('jpeg');
    expect((await compose(layoutOf({ output_format: 'auto', background_blur: '5' }))).format).toBe('jpeg');
    const low = await compose(layoutOf({ output_format: 'jpeg', quality: '20', background_color: 'white' }));
    const high = await compose(layoutOf({ output_format: 'jpeg', quality: '95', background_color: 'white' }));
    expect(low.data.length).toBeLessThan(high.data.length / 2);
    const lossy = await compose(layoutOf({ output_format: 'webp', quality: '50' }));
    const lossless = await compose(layoutOf({ output_format: 'webp' }));
    expect(lossy.data.length).toBeLessThan(lossless.data.length);
    // JPEG of a transparent cut-out is flattened on white.
    const flat = await rawOf((await compose(layoutOf({ output_format: 'jpeg' }))).data);
    expect(pixel(flat, 2, 2).every((v) => v >= 250)).toBe(true);
  });

  it('lays out the matte alone with mask_only', async () => {
    const out = await compose(layoutOf({ mask_only: 'true', crop_to_subject: 'true', canvas: '1:1', margin: '10px' }));
    expect((await sharp(out.data).metadata()).channels).toBe(1);
    expect([out.format, out.height]).toEqual(['png', out.width]);
    const px = { data: await sharp(out.data).extractChannel(0).raw().toBuffer(), width: out.width, channels: 1 };
    const s = out.subjectBox!;
    expect(pixel(px, 0, 0)).toEqual([0]);
    expect(pixel(px, Math.round(s.left + s.width / 2), Math.round(s.top + s.height / 2))[0]).toBeGreaterThan(200);
  });

  it("accepts encoded inputs, refuses a matte of another size, and multiplies an image's own alpha", async () => {
    const encoded = await composeProductPhoto({
      provenance,
      foreground: COFFEE,
      matte: COFFEE_MATTE,
      layout: layoutOf({ crop_to_subject: 'true' }),
    });
    expect([encoded.width, encoded.height]).toEqual([
      (await compose(layoutOf({ crop_to_subject: 'true' }))).width,
      encoded.height,
    ]);
    await expect(
      composeProductPhoto({
        provenance,
        foreground: fg,
        matte: { ...matte, width: 200, height: 300 },
        layout: DEFAULT_PRODUCT_PHOTO_LAYOUT,
      }),
    ).rejects.toMatchObject({ code: 'matteSize' });
    await expect(
      composeProductPhoto({
        provenance,
        foreground: fg,
        matte: Buffer.from('not a png'),
        layout: DEFAULT_PRODUCT_PHOTO_LAYOUT,
      }),
    ).rejects.toMatchObject({ code: 'matteUnreadable' });
    // An empty matte has no subject: cropping keeps the whole image, and there is no subject box.
    const empty = await composeProductPhoto({
      provenance,
      foreground: fg,
      matte: { ...matte, data: Buffer.alloc(300 * 200) },
      layout: layoutOf({ crop_to_subject: 'true', background_color: 'white', shadow: 'contact' }),
    });
    expect([empty.width, empty.height, empty.subjectBox]).toEqual([300, 200, null]);
    const half = Buffer.from(fg.data);
    for (let i = 3; i < half.length; i += 4) half[i] = 128;
    const px = await rawOf(
      (
        await composeProductPhoto({
          provenance,
          foreground: { ...fg, data: half },
          matte,
          layout: DEFAULT_PRODUCT_PHOTO_LAYOUT,
        })
      ).data,
    );
    for (const [x, y] of [
      [150, 90],
      [3, 3],
      [60, 100],
    ] as const) {
      const expected = Math.round((matte.data[y * 300 + x]! * 128) / 255);
      expect(Math.abs(pixel(px, x, y)[3]! - expected)).toBeLessThanOrEqual(1);
    }
  });

  it('keeps the event loop free while composing a 6 MP photo', async () => {
    // The longest stretch of this (the event loop's) thread's own CPU time between two ticks of a 5 ms timer:
    // the work that held the loop. A wall-clock gap would also count the time a busy shared machine gave the
    // core to other test files, which is not the engine's doing.
    const threadMs = () => {
      const { user, system } = process.threadCpuUsage();
      return (user + system) / 1000;
    };
    let maxGap = 0;
    let last = threadMs();
    const timer = setInterval(() => {
      const now = threadMs();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 5);
    const out = await composeProductPhoto({
      provenance,
      foreground: big.fg,
      matte: big.matte,
      layout: layoutOf({
        crop_to_subject: 'true',
        canvas: '2000x2000',
        margin: '8%',
        background_blur: '20',
        shadow: 'contact',
        output_format: 'jpeg',
      }),
    });
    clearInterval(timer);
    expect([out.width, out.height, out.format]).toEqual([2000, 2000, 'jpeg']);
    // Only small masks are walked in JavaScript; the pixels go through sharp's thread pool.
    expect(maxGap).toBeLessThan(150);
  });
});

/**
 * Subjects drawn for the test: a grey foreground, and a matte of discs and rectangles, so where each part and its
 * shadow must be is known exactly.
 */
describe('the frame rule and grounded shadows', () => {
  const GREY = 80;
  type Shape = { disc: [cx: number, cy: number, r: number] } | { rect: [x: number, y: number, w: number, h: number] };
  function drawn(width: number, height: number, shapes: Shape[]): Pick<ComposeInput, 'foreground' | 'matte'> {
    const m = Buffer.alloc(width * height);
    for (const s of shapes)
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const inside =
            'disc' in s
              ? (x - s.disc[0]) ** 2 + (y - s.disc[1]) ** 2 <= s.disc[2] ** 2
              : x >= s.rect[0] && x < s.rect[0] + s.rect[2] && y >= s.rect[1] && y < s.rect[1] + s.rect[3];
          if (inside) m[y * width + x] = 255;
        }
    return {
      foreground: { data: Buffer.alloc(width * height * 3, GREY), width, height, channels: 3 },
      matte: { data: m, width, height },
    };
  }
  const grey = (out: { data: Buffer }) => rawOf(out.data);

  it('grounds a contact shadow under both wheels of a two-wheeled subject, and none in the gap or under an overhang', async () => {
    // Two wheels (radius 40) on struts under a bar, the right one 20 px lower (a ground seen at a slant, more than
    // the 12% of the subject's height a point may stand above the lowest one), and a fender hanging at the left
    // end of the bar, 50 px above the ground.
    const bike = drawn(600, 400, [
      { rect: [60, 230, 400, 20] },
      { rect: [60, 230, 20, 60] },
      { rect: [145, 240, 10, 60] },
      { rect: [445, 240, 10, 80] },
      { disc: [150, 300, 40] },
      { disc: [450, 320, 40] },
    ]);
    const fields = { crop_to_subject: 'true', canvas: '1000x600', margin: '10%', background_color: 'white' };
    const out = await composeProductPhoto({ provenance, ...bike, layout: layoutOf({ ...fields, shadow: 'contact' }) });
    const s = out.subjectBox!;
    // The input's box is 60..490 x 230..360; each input pixel is `k` result pixels.
    const k = s.width / 431;
    const at = (x: number, y: number) => [Math.round(s.left + (x - 60) * k), Math.round(s.top + (y - 230) * k)];
    const px = await grey(out);
    const shade = ([x, y]: number[]) => pixel(px, x!, y!)[0]!;
    // Just below each wheel's lowest pixel (rows 340 and 360): shadow.
    expect(shade(at(150, 342))).toBeLessThan(200);
    expect(shade(at(450, 362))).toBeLessThan(200);
    // Between the wheels, on and below the ground line: the white background, untouched.
    for (const y of [343, 350, 353, 358]) expect([y, shade(at(300, y))]).toEqual([y, 255]);
    // Under the fender, which hangs in the air, and beside the wheels' outer flanks: nothing either.
    for (const y of [291, 300, 320]) expect([y, shade(at(70, y))]).toEqual([y, 255]);
    expect(shade(at(95, 342))).toBe(255);
    expect(shade(at(505, 362))).toBe(255);
  });

  it('keeps a subject cut by the bottom edge on the canvas bottom, with no shadow under or beside the cut', async () => {
    // A body cut by the photo's bottom edge along its whole width.
    const cut = drawn(400, 300, [{ rect: [100, 80, 200, 220] }]);
    const fields = { crop_to_subject: 'true', canvas: '600x600', margin: '10%', background_color: 'white' };
    const plain = await composeProductPhoto({ provenance, ...cut, layout: layoutOf(fields) });
    const s = plain.subjectBox!;
    // Scaled to the inner width (600 - 2 x 60), and down on the bottom edge with no margin under it.
    expect(s).toEqual({ left: 60, top: 600 - 528, width: 480, height: 528 });
    // No contact shadow at all: the same picture as without a shadow.
    const contact = await composeProductPhoto({
      provenance,
      ...cut,
      layout: layoutOf({ ...fields, shadow: 'contact' }),
    });
    expect(contact.data.equals(plain.data)).toBe(true);
    // The drop shadow beside the subject fades out before the cut: none in the bottom rows beside it.
    const drop = await grey(
      await composeProductPhoto({
        provenance,
        ...cut,
        layout: layoutOf({ ...fields, shadow: 'drop', shadow_opacity: '1' }),
      }),
    );
    const right = s.left + s.width;
    for (let y = 580; y < 600; y++)
      for (let x = right; x < right + 30; x++) expect([x, y, pixel(drop, x, y)[0]]).toEqual([x, y, 255]);
    // Higher up, beside the body, the drop shadow is still there.
    expect(pixel(drop, right + 5, 300)[0]).toBeLessThan(200);
  });

  it('puts a subject cut by the left edge on the canvas left edge, and centres it when asked to', async () => {
    const cut = drawn(400, 300, [{ rect: [0, 100, 150, 100] }]);
    const fields = { crop_to_subject: 'true', canvas: '600x600', margin: '10%', background_color: 'white' };
    const kept = (await composeProductPhoto({ provenance, ...cut, layout: layoutOf(fields) })).subjectBox!;
    expect(kept.left).toBe(0);
    // Scaled to the inner width left by the other margin (600 - 60), centred up and down.
    expect(kept.width).toBe(540);
    expect(Math.abs(kept.top + kept.height / 2 - 300)).toBeLessThanOrEqual(1);
    for (const extra of [{ position: 'center' }, { keep_cut_edges: 'false' }]) {
      const centred = (await composeProductPhoto({ provenance, ...cut, layout: layoutOf({ ...fields, ...extra }) }))
        .subjectBox!;
      expect([extra, centred]).toEqual([extra, { left: 60, top: expect.any(Number), width: 480, height: 320 }]);
    }
    // A few pixels grazing the edge (a strand 2 px high) are no cut: the subject stays centred.
    const grazing = drawn(400, 300, [{ rect: [100, 100, 150, 100] }, { rect: [0, 150, 100, 2] }]);
    const g = (await composeProductPhoto({ provenance, ...grazing, layout: layoutOf(fields) })).subjectBox!;
    expect(g.left).toBe(60);
  });
});
