import { headerSize } from './image-header';
import { mayNotPreview, sniffFormat } from './upload-checks';

/** Builders of real container headers, byte by byte, as HEIF writers and TIFF writers lay them out. */
const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));
const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const u16 = (n: number) => [(n >>> 8) & 255, n & 255];
const box = (type: string, ...payload: number[][]) => {
  const body = payload.flat();
  return [...u32(8 + body.length), ...ascii(type), ...body];
};
const fullBox = (type: string, version: number, ...payload: number[][]) => box(type, [version, 0, 0, 0], ...payload);

/** A HEIF header: item 1 is primary, with an `ispe` of width x height and optionally an `irot` of 90 degrees. */
function heif(brands: string[], width: number, height: number, turned = false): Uint8Array {
  const properties = [fullBox('ispe', 0, u32(width), u32(height)), ...(turned ? [box('irot', [1])] : [])];
  // Item 1 associates property 1 (ispe) and, when turned, 2 (irot); an unrelated item 2 has a huge ispe.
  const decoy = fullBox('ispe', 0, u32(99999), u32(99999));
  const ipma = fullBox(
    'ipma',
    0,
    u32(2),
    u16(1),
    [properties.length],
    properties.map((_, i) => 0x80 | (i + 1)),
    u16(2),
    [1],
    [properties.length + 1],
  );
  const meta = fullBox(
    'meta',
    0,
    fullBox('hdlr', 0, u32(0), ascii('pict'), u32(0), u32(0), u32(0), [0]),
    fullBox('pitm', 0, u16(1)),
    box('iprp', box('ipco', ...properties, decoy), ipma),
  );
  const ftyp = box('ftyp', ascii(brands[0]!), u32(0), ...brands.map(ascii));
  return new Uint8Array([...ftyp, ...meta, ...box('mdat', [0, 0, 0, 0])]);
}

/** A little-endian TIFF with ImageWidth, ImageLength and Orientation in its first directory. */
function tiff(width: number, height: number, orientation = 1): Uint8Array {
  const le32 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];
  const le16 = (n: number) => [n & 255, (n >>> 8) & 255];
  const entry = (tag: number, type: number, value: number) => [
    ...le16(tag),
    ...le16(type),
    ...le32(1),
    ...(type === 3 ? [...le16(value), 0, 0] : le32(value)),
  ];
  return new Uint8Array([
    ...ascii('II'),
    ...le16(42),
    ...le32(8),
    ...le16(3),
    ...entry(256, 4, width),
    ...entry(257, 3, height),
    ...entry(274, 3, orientation),
    ...le32(0),
  ]);
}

describe('sniffFormat: phone and camera formats', () => {
  it('recognises TIFF by its byte order, AVIF and HEIC by their brands', () => {
    expect(sniffFormat(tiff(10, 10))).toBe('tiff');
    expect(sniffFormat(new Uint8Array([...ascii('MM'), 0, 42, 0, 0, 0, 8]))).toBe('tiff');
    expect(sniffFormat(heif(['heic', 'mif1', 'heic'], 4, 3).slice(0, 64))).toBe('heic');
    expect(sniffFormat(heif(['mif1', 'avif', 'miaf'], 4, 3).slice(0, 64))).toBe('avif');
    expect(sniffFormat(heif(['isom', 'mp41'], 4, 3).slice(0, 64))).toBeNull(); // an MP4
  });
});

describe('headerSize', () => {
  it("reads a HEIC's primary image size without decoding, turned by its irot", () => {
    expect(headerSize(heif(['heic', 'mif1'], 4032, 3024), 'heic')).toEqual({ width: 4032, height: 3024 });
    expect(headerSize(heif(['heic', 'mif1'], 4032, 3024, true), 'heic')).toEqual({ width: 3024, height: 4032 });
    // A bomb's header is read like any other: the size check then refuses it.
    expect(headerSize(heif(['heic'], 20000, 20000), 'heic')).toEqual({ width: 20000, height: 20000 });
  });

  it("reads a TIFF's size, turned by its orientation", () => {
    expect(headerSize(tiff(640, 480), 'tiff')).toEqual({ width: 640, height: 480 });
    expect(headerSize(tiff(640, 480, 6), 'tiff')).toEqual({ width: 480, height: 640 });
  });

  it('gives null for a header cut short or without a size', () => {
    expect(headerSize(heif(['heic'], 40, 30).slice(0, 40), 'heic')).toBeNull();
    expect(headerSize(tiff(640, 480).slice(0, 20), 'tiff')).toBeNull();
    expect(headerSize(new Uint8Array(box('ftyp', ascii('heic'), u32(0))), 'heic')).toBeNull();
  });
});

describe('mayNotPreview', () => {
  it('names HEIC, HEIF and TIFF files and presigned URLs, not the formats every browser shows', () => {
    expect(mayNotPreview('https://s3.example/inputs/u/j/input.heic?X-Amz-Signature=abc')).toBe(true);
    expect(mayNotPreview('IMG_0001.HEIC')).toBe(true);
    expect(mayNotPreview('scan.tif')).toBe(true);
    expect(mayNotPreview('https://s3.example/inputs/u/j/input.png?name=x.heic')).toBe(false);
    expect(mayNotPreview('photo.avif')).toBe(false);
  });
});
