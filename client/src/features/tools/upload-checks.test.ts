import { LIMITS } from '@imagestudio/contracts';
import { checkUpload, maxUpscaleSide, sniffFormat, type UploadFacts } from './upload-checks';
import { batchCount } from './use-upload';

const bytes = (...values: number[]) => new Uint8Array(values);
const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));
const ok: UploadFacts = { bytes: 1000, format: 'png', width: 800, height: 600 };

describe('sniffFormat', () => {
  it('recognises JPEG, PNG and WebP from their first bytes', () => {
    expect(sniffFormat(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('jpeg');
    expect(sniffFormat(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('png');
    expect(sniffFormat(bytes(...ascii('RIFF'), 1, 2, 3, 4, ...ascii('WEBPVP8 ')))).toBe('webp');
  });

  it('refuses GIF, SVG, a RIFF that is not WebP, and too few bytes', () => {
    expect(sniffFormat(bytes(...ascii('GIF89a')))).toBeNull();
    expect(sniffFormat(bytes(...ascii('<svg xmlns')))).toBeNull();
    expect(sniffFormat(bytes(...ascii('RIFF'), 1, 2, 3, 4, ...ascii('WAVE')))).toBeNull();
    expect(sniffFormat(bytes(0x89, 0x50))).toBeNull();
  });
});

describe('checkUpload', () => {
  it('accepts an image within every limit', () => {
    expect(checkUpload(ok)).toBeNull();
  });

  it('reports an empty file, then the type, then the size, then unreadable, then megapixels', () => {
    expect(checkUpload({ ...ok, bytes: 0, format: null })?.key).toBe('client-tools.upload.errors.empty');
    expect(checkUpload({ ...ok, format: null, bytes: LIMITS.uploadMaxBytes + 1 })?.key).toBe(
      'client-tools.upload.errors.type',
    );
    expect(checkUpload({ ...ok, bytes: 25 * 1024 * 1024, width: 9000, height: 9000 })).toEqual({
      key: 'client-tools.upload.errors.size',
      vars: { size: '25', max: 20 },
    });
    expect(checkUpload({ ...ok, width: null, height: null })?.key).toBe('client-tools.upload.errors.unreadable');
    expect(checkUpload({ ...ok, width: 6000, height: 5000 })).toEqual({
      key: 'client-tools.upload.errors.pixels',
      vars: { mp: '30', max: 25 },
    });
  });

  it('takes exactly the limits: 20 MB and 25 MP pass, one more fails', () => {
    expect(checkUpload({ ...ok, bytes: LIMITS.uploadMaxBytes, width: 5000, height: 5000 })).toBeNull();
    expect(checkUpload({ ...ok, width: 5000, height: 5001 })?.key).toBe('client-tools.upload.errors.pixels');
  });

  it('with an upscale factor, refuses inputs whose output would pass 64 MP and names the largest side', () => {
    expect(maxUpscaleSide(4)).toBe(2048);
    expect(maxUpscaleSide(2)).toBe(4096);
    expect(checkUpload({ ...ok, width: 2048, height: 2048 }, 4)).toBeNull();
    expect(checkUpload({ ...ok, width: 2049, height: 2048 }, 4)).toEqual({
      key: 'client-tools.upscale.errors.outputTooLarge',
      vars: { factor: 4, side: 2048 },
    });
    expect(checkUpload({ ...ok, width: 2049, height: 2048 }, 2)).toBeNull();
  });
});

describe('batchCount', () => {
  it('counts the chosen images while their checks run, then the checked ones; a ZIP by its listed images', () => {
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    const base = { archive: null, problem: null };
    expect(batchCount({ ...base, images: [], chosenImages: 3, checking: true })).toBe(3);
    const image = { file, url: null, problem: null };
    expect(batchCount({ ...base, images: [image, image], chosenImages: 2, checking: false })).toBe(2);
    const zip = new File(['z'], 'photos.zip', { type: 'application/zip' });
    expect(
      batchCount({
        images: [],
        chosenImages: 0,
        checking: true,
        problem: null,
        archive: { file: zip, imageNames: null },
      }),
    ).toBeNull();
    expect(
      batchCount({
        images: [],
        chosenImages: 0,
        checking: false,
        problem: null,
        archive: { file: zip, imageNames: ['a.png', 'b.jpg'] },
      }),
    ).toBe(2);
  });
});
