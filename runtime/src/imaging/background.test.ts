import sharp from 'sharp';
import { productPhotoRequestSchema, type ProductPhotoLayout } from '@imagestudio/contracts';
import { blurredBackground } from './background';
import { composeProductPhoto } from './compose';
import type { RawImage } from './encode';
import { insertPngIcc } from './icc';
import type { Matte } from './subject-box';

/** The provenance the engine writes into each result; any tool name does here. */
const provenance = { source: 'compositeWithTrainedAlgorithmicMedia', tool: 'test' } as const;

const layoutOf = (fields: Record<string, unknown>): ProductPhotoLayout => productPhotoRequestSchema.parse(fields);

// ---- no ghosts in the blurred background ----

/**
 * A 400x300 photo: a blue background (red 40, green and blue in gradients, so the blur has something to keep)
 * and a red subject (230, 40, 40) touching the left and the bottom edges, with a soft 3 px edge whose pixels are
 * red too (as decontamination leaves them). The matte is 255 inside, falling off across the edge.
 */
const W = 400;
const H = 300;
const SUBJECT = { right: 150, top: 120 };
const BACKGROUND_RED = 40;

function photo(): { fg: RawImage; matte: Matte } {
  const rgb = Buffer.alloc(W * H * 3);
  const matte = Buffer.alloc(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      // Distance outside the subject's rectangle (0 inside it).
      const out = Math.max(0, x - (SUBJECT.right - 1), SUBJECT.top - y);
      matte[i] = out === 0 ? 255 : out <= 3 ? Math.round(255 * (1 - out / 4)) : 0;
      rgb.set(matte[i]! > 0 ? [230, 40, 40] : [BACKGROUND_RED, 80 + Math.round(x / 4), 150 + Math.round(y / 5)], i * 3);
    }
  return { fg: { data: rgb, width: W, height: H, channels: 3 }, matte: { data: matte, width: W, height: H } };
}

/** The largest red value in a canvas-sized RGBA layer: the background's own is 40, any of the subject's raises it. */
function maxRed(layer: Buffer): number {
  let max = 0;
  for (let i = 0; i < layer.length; i += 4) max = Math.max(max, layer[i]!);
  return max;
}

describe('blurredBackground', () => {
  const { fg, matte } = photo();
  // The photo scaled 1.4x into the middle of an 800x800 canvas: the canvas reaches past all four of its edges,
  // so the subject's mirror images would lie left of it and below it.
  const plan = {
    canvas: { width: 800, height: 800 },
    source: { left: 0, top: 0, width: W, height: H },
    target: { left: 120, top: 190, width: 560, height: 420 },
  };

  it.each([3, 20, 60])(
    'never shows the subject, mirrored or not, where it touches the edges (radius %i)',
    async (radius) => {
      const layer = await blurredBackground(fg, matte, plan, radius);
      expect(layer.length).toBe(800 * 800 * 4);
      // Everywhere, the subject's area and its mirror images included: background only.
      expect(maxRed(layer)).toBeLessThanOrEqual(BACKGROUND_RED + 2);
    },
  );

  it("is made of the background's pixels only: the subject painted another colour changes none of it", async () => {
    const painted = Buffer.from(fg.data);
    for (let i = 0; i < W * H; i++) if (matte.data[i]! > 0) painted.set([0, 255, 0], i * 3);
    const layer = await blurredBackground(fg, matte, plan, 20);
    expect(layer.equals(await blurredBackground({ ...fg, data: painted }, matte, plan, 20))).toBe(true);
  });

  it("keeps the background's own colours, blurred, where the photo is", async () => {
    const layer = await blurredBackground(fg, matte, plan, 3);
    // The photo's (300, 50) lands on the canvas at (120 + 1.4 * 300, 190 + 1.4 * 50).
    const i = ((190 + 70) * 800 + 120 + 420) * 4;
    const shown = Array.from(layer.subarray(i, i + 4));
    expect([shown, within(shown, [40, 80 + 75, 150 + 10, 255], 2)]).toEqual([shown, true]);
  });

  it('also when a crop shows only part of the photo, mirrored past the crop where the photo ends', async () => {
    // The subject's box (0,120 150x180) at 2x on a 600x600 canvas: the photo ends at its left and bottom edges.
    const crop = {
      canvas: { width: 600, height: 600 },
      source: { left: 0, top: 120, width: 150, height: 180 },
      target: { left: 150, top: 120, width: 300, height: 360 },
    };
    expect(maxRed(await blurredBackground(fg, matte, crop, 20))).toBeLessThanOrEqual(BACKGROUND_RED + 2);
  });

  it('is white when the photo has no background at all', async () => {
    const whole = { data: Buffer.alloc(W * H, 255), width: W, height: H };
    const layer = await blurredBackground(fg, whole, plan, 20);
    const { channels } = await sharp(layer, { raw: { width: 800, height: 800, channels: 4 } }).stats();
    expect(channels.map((c) => c.min)).toEqual([255, 255, 255, 255]);
  });

  it('leaves the subject out of a composed picture with background_blur', async () => {
    const out = await composeProductPhoto({
      provenance,
      foreground: fg,
      matte,
      layout: layoutOf({ background_blur: '20', canvas: '800x800', margin: '15%', position: '50% 50%' }),
    });
    const { data, info } = await sharp(out.data).raw().toBuffer({ resolveWithObject: true });
    // The subject itself is drawn sharp over the background: only pixels beyond its grown box are looked at.
    const box = out.subjectBox!;
    let max = 0;
    for (let y = 0; y < info.height; y++)
      for (let x = 0; x < info.width; x++) {
        const inside =
          x < box.left + box.width + 4 && y >= box.top - 4 && x >= box.left - 4 && y < box.top + box.height + 4;
        if (!inside) max = Math.max(max, data[(y * info.width + x) * info.channels]!);
      }
    expect(max).toBeLessThanOrEqual(BACKGROUND_RED + 2);
  });
});

// ---- true colours on wide-gamut photos ----

const s15Fixed16 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(Math.round(v * 65536));
  return b;
};
const xyzTag = (x: number, y: number, z: number) =>
  Buffer.concat([Buffer.from('XYZ \0\0\0\0', 'latin1'), s15Fixed16(x), s15Fixed16(y), s15Fixed16(z)]);

/**
 * An ICC v2 display profile with Adobe RGB (1998)'s primaries (adapted to D50) and its 563/256 gamma: a matrix
 * and three curves, as the real one is. Built here because no Adobe RGB profile ships with sharp. It reproduces
 * the shift seen on Adobe RGB photos (102,51,153 written raw shows as 116,48,157 in sRGB).
 */
function adobeRgbProfile(): Buffer {
  const curve = Buffer.alloc(14);
  curve.write('curv', 0, 'latin1');
  curve.writeUInt32BE(1, 8);
  curve.writeUInt16BE(563, 12);
  const name = Buffer.from('Adobe RGB (1998) compatible, test\0', 'latin1');
  // textDescriptionType: ASCII, then empty Unicode and ScriptCode parts.
  const desc = Buffer.alloc(12 + name.length + 4 + 4 + 2 + 1 + 67);
  desc.write('desc', 0, 'latin1');
  desc.writeUInt32BE(name.length, 8);
  name.copy(desc, 12);
  const tags: [string, Buffer][] = [
    ['desc', desc],
    ['cprt', Buffer.from('text\0\0\0\0none\0', 'latin1')],
    ['wtpt', xyzTag(0.9642, 1, 0.8249)],
    ['rXYZ', xyzTag(0.60974, 0.31111, 0.01947)],
    ['gXYZ', xyzTag(0.20528, 0.62567, 0.06087)],
    ['bXYZ', xyzTag(0.14919, 0.06322, 0.74457)],
    ['rTRC', curve],
    ['gTRC', curve],
    ['bTRC', curve],
  ];
  const table = Buffer.alloc(4 + 12 * tags.length);
  table.writeUInt32BE(tags.length, 0);
  const data: Buffer[] = [];
  let offset = 128 + table.length;
  tags.forEach(([signature, tag], i) => {
    table.write(signature, 4 + 12 * i, 'latin1');
    table.writeUInt32BE(offset, 8 + 12 * i);
    table.writeUInt32BE(tag.length, 12 + 12 * i);
    const padded = Buffer.concat([tag, Buffer.alloc((4 - (tag.length % 4)) % 4)]);
    data.push(padded);
    offset += padded.length;
  });
  const header = Buffer.alloc(128);
  header.writeUInt32BE(offset, 0);
  header.writeUInt32BE(0x02100000, 8);
  header.write('mntrRGB XYZ ', 12, 'latin1');
  header.writeUInt16BE(2024, 24);
  header.writeUInt16BE(1, 26);
  header.writeUInt16BE(1, 28);
  header.write('acsp', 36, 'latin1');
  // The profile connection space's illuminant, D50.
  xyzTag(0.9642, 1, 0.8249).copy(header, 68, 8);
  return Buffer.concat([header, table, ...data]);
}

/** The libvips built-in Display P3 profile, as sharp embeds it. */
async function displayP3Profile(): Promise<Buffer> {
  const tagged = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#808080' } })
    .withIccProfile('p3')
    .png()
    .toBuffer();
  return (await sharp(tagged).metadata()).icc!;
}

/**
 * A 120x90 photo (a grey-green background, a yellow square subject at 40,25 40x40), its numbers taken as the
 * profile's and tagged with it, and the subject's matte.
 */
async function widePhoto(icc: Buffer): Promise<{ photo: Buffer; untagged: Buffer; matte: Buffer }> {
  const untagged = await sharp({
    create: { width: 120, height: 90, channels: 3, background: { r: 90, g: 140, b: 80 } },
  })
    .composite([
      {
        input: { create: { width: 40, height: 40, channels: 3, background: { r: 240, g: 200, b: 30 } } },
        left: 40,
        top: 25,
      },
    ])
    .png()
    .toBuffer();
  const matte = await sharp({ create: { width: 120, height: 90, channels: 3, background: '#000' } })
    .composite([{ input: { create: { width: 40, height: 40, channels: 3, background: '#fff' } }, left: 40, top: 25 }])
    .png()
    .toBuffer();
  return { photo: insertPngIcc(untagged, icc), untagged, matte };
}

/** What a colour-managed viewer shows at (x, y): the file converted from its profile to sRGB. */
async function shownAt(file: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(file).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return Array.from(data.subarray(i, i + 3));
}

const within = (actual: number[], expected: number[], tolerance: number) =>
  actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance);

describe('background colours on a wide-gamut photo', () => {
  const profiles: [string, () => Promise<Buffer>][] = [
    ['Adobe RGB', async () => adobeRgbProfile()],
    ['Display P3', displayP3Profile],
  ];
  const backgroundImage = () =>
    sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 30, b: 40 } } })
      .png()
      .toBuffer();

  it('builds an Adobe RGB profile that shifts raw colours as a real one does', async () => {
    // Without conversion, the requested numbers show as other colours: what compose must not do.
    const raw = await sharp({ create: { width: 2, height: 2, channels: 3, background: { r: 102, g: 51, b: 153 } } })
      .png()
      .toBuffer();
    expect(await shownAt(insertPngIcc(raw, adobeRgbProfile()), 0, 0)).toEqual([116, 48, 157]);
  });

  describe.each(profiles)('%s', (_name, profile) => {
    it.each([
      ['background_color=rebeccapurple', { background_color: 'rebeccapurple' }, [102, 51, 153]],
      ['a background image of 200,30,40', { background_image: true }, [200, 30, 40]],
    ] as const)('shows %s as asked, in every format, keeping the profile', async (_label, fields, expected) => {
      const icc = await profile();
      const { photo, matte } = await widePhoto(icc);
      for (const format of ['jpeg', 'png', 'webp', 'avif'] as const) {
        const out = await composeProductPhoto({
          provenance,
          foreground: photo,
          matte,
          backgroundImage: await backgroundImage(),
          layout: layoutOf({ ...fields, output_format: format }),
        });
        expect([format, (await sharp(out.data).metadata()).icc?.equals(icc)]).toEqual([format, true]);
        const shown = await shownAt(out.data, 5, 5);
        expect([format, shown, within(shown, [...expected], 2)]).toEqual([format, shown, true]);
        // The subject keeps the photo's own numbers (in its profile, unconverted).
        const { data, info } = await sharp(out.data).keepIccProfile().raw().toBuffer({ resolveWithObject: true });
        const i = (45 * info.width + 60) * info.channels;
        const subject = Array.from(data.subarray(i, i + 3));
        expect([format, subject, within(subject, [240, 200, 30], 3)]).toEqual([format, subject, true]);
      }
    });
  });

  it('takes the profile from a raw foreground too (the worker passes the decoded pixels and their profile)', async () => {
    const icc = adobeRgbProfile();
    const { photo, matte } = await widePhoto(icc);
    const { data, info } = await sharp(photo).keepIccProfile().raw().toBuffer({ resolveWithObject: true });
    const out = await composeProductPhoto({
      provenance,
      foreground: { data, width: info.width, height: info.height, channels: 3, icc },
      matte,
      layout: layoutOf({ background_color: 'rebeccapurple', output_format: 'png' }),
    });
    expect(within(await shownAt(out.data, 5, 5), [102, 51, 153], 2)).toBe(true);
  });

  it('writes the numbers as they are on an sRGB photo', async () => {
    const { untagged, matte } = await widePhoto(adobeRgbProfile());
    const out = await composeProductPhoto({
      provenance,
      foreground: untagged,
      matte,
      layout: layoutOf({ background_color: 'rebeccapurple', output_format: 'png' }),
    });
    expect((await sharp(out.data).metadata()).icc).toBeUndefined();
    expect(await shownAt(out.data, 5, 5)).toEqual([102, 51, 153]);
  });
});
