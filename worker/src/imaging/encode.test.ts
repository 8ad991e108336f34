import sharp from 'sharp';
import { encodeImage } from './encode';
import { pngChunks } from '@imagestudio/runtime/imaging';

const gradient = (): Buffer => {
  const px = Buffer.alloc(64 * 64 * 4);
  for (let i = 0; i < 64 * 64; i++) px.set([i % 256, (i >> 6) * 4, 255 - (i % 256), i % 2 ? 255 : 100], i * 4);
  return px;
};

describe('encodeImage', () => {
  it('writes a truecolor PNG (not palette) with alpha and the provenance XMP, no EXIF', async () => {
    const png = await encodeImage(
      { data: gradient(), width: 64, height: 64, channels: 4 },
      'png',
      'compositeWithTrainedAlgorithmicMedia',
      'test',
    );
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe('png');
    expect(meta.channels).toBe(4);
    expect(meta.isPalette).toBe(false);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp?.toString()).toContain('digitalsourcetype/compositeWithTrainedAlgorithmicMedia');
    // Lossless: every pixel comes back.
    const back = await sharp(png).raw().toBuffer();
    expect(back.equals(gradient())).toBe(true);
  });

  it('puts the PNG XMP in one uncompressed iTXt chunk keyed XML:com.adobe.xmp, before the image data', async () => {
    const png = await encodeImage(
      { data: gradient(), width: 64, height: 64, channels: 4 },
      'png',
      'trainedAlgorithmicMedia',
      'imagestudio generate (remote:gpt-image-1)',
    );
    const chunks = pngChunks(png);
    const types = chunks.map((c) => c.type);
    expect(types.filter((t) => t === 'zTXt')).toEqual([]);
    const itxt = chunks.filter((c) => c.type === 'iTXt');
    expect(itxt).toHaveLength(1);
    expect(types.indexOf('iTXt')).toBeLessThan(types.indexOf('IDAT'));
    const data = itxt[0]!.data;
    const header = 'XML:com.adobe.xmp\0\0\0\0\0';
    expect(data.toString('latin1', 0, header.length)).toBe(header);
    const xmp = data.toString('utf8', header.length);
    expect(xmp).toMatch(/^<\?xpacket begin="\uFEFF"/);
    expect(xmp).toContain(
      'Iptc4xmpExt:DigitalSourceType="http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia"',
    );
    expect(xmp).toContain('xmp:CreatorTool="imagestudio generate (remote:gpt-image-1)"');
    expect(xmp.endsWith('<?xpacket end="w"?>')).toBe(true);
    // A strict decoder (libspng, CRC checked) reads the file and its XMP.
    const meta = await sharp(png, { failOn: 'warning' }).metadata();
    expect(meta.xmp?.toString()).toContain('trainedAlgorithmicMedia');
    expect((await sharp(png, { failOn: 'warning' }).raw().toBuffer()).equals(gradient())).toBe(true);
  });

  it('writes lossless WebP and JPEG without alpha, both with the XMP', async () => {
    const webp = await encodeImage(
      { data: gradient(), width: 64, height: 64, channels: 4 },
      'webp',
      'trainedAlgorithmicMedia',
      'test',
    );
    expect((await sharp(webp).metadata()).xmp?.toString()).toContain('digitalsourcetype/trainedAlgorithmicMedia');
    const back = await sharp(webp).raw().toBuffer();
    expect(back.equals(gradient())).toBe(true);
    const jpeg = await encodeImage(
      { data: gradient(), width: 64, height: 64, channels: 4 },
      'jpeg',
      'compositeWithTrainedAlgorithmicMedia',
      'test',
    );
    const meta = await sharp(jpeg).metadata();
    expect([meta.format, meta.channels]).toEqual(['jpeg', 3]);
    expect(meta.xmp?.toString()).toContain('compositeWithTrainedAlgorithmicMedia');
  });
});
