// The converted ESRGAN models from `npm run models` against the original TF.js models run by TF.js (wasm) on a
// real photo crop: PSNR > 100 dB. A second check guards the manifest's value range: fed as recorded, the
// upscaled result box-filtered back down must resemble the input photo.
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { readTarballFiles } from '../prepare/tarball';
import { requirePrepared, requireTarball } from '../testing/cache';
import { runOnnx } from '../testing/ort';
import { psnr } from '../testing/reference';
import { loadLayersModel, loadTf, predictNchw } from '../testing/tfjs';
import type { LayersModelJson } from './tfjs-layers';

const CROP = join(__dirname, '..', 'fixtures', 'chelsea-crop-48x40.png');

/** The fixture (optionally a top-left sub-crop) as NCHW float32 RGB scaled to 0..max. */
async function photo(
  max: number,
  size?: { width: number; height: number },
): Promise<{ data: Float32Array; h: number; w: number }> {
  let img = sharp(CROP).removeAlpha();
  if (size) img = img.extract({ left: 0, top: 0, ...size });
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = info;
  const nchw = new Float32Array(3 * h * w);
  for (let i = 0; i < h * w; i++)
    for (let c = 0; c < 3; c++) nchw[c * h * w + i] = ((data[i * 3 + c] as number) / 255) * max;
  return { data: nchw, h, w };
}

/** Box-filters an NCHW output by `scale` back to the input size, clamped to 0..max. */
function downscale(out: Float32Array, h: number, w: number, scale: number, max: number): Float32Array {
  const small = new Float32Array(3 * h * w);
  const oh = h * scale;
  const ow = w * scale;
  for (let c = 0; c < 3; c++)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        let sum = 0;
        for (let dy = 0; dy < scale; dy++)
          for (let dx = 0; dx < scale; dx++) {
            sum += Math.min(max, Math.max(0, out[(c * oh + y * scale + dy) * ow + x * scale + dx] as number));
          }
        small[(c * h + y) * w + x] = sum / (scale * scale);
      }
  return small;
}

const CASES = [
  { id: 'esrgan-slim-x2' },
  { id: 'esrgan-slim-x4' },
  { id: 'esrgan-medium-x2' },
  { id: 'esrgan-medium-x4' },
  // thick is ~7 M multiply-adds per pixel: a 16x16 crop keeps TF.js (single-threaded wasm) to about a second.
  { id: 'esrgan-thick-x2', size: { width: 16, height: 16 } },
];

beforeAll(async () => {
  await loadTf();
});

describe.each(CASES)('$id', ({ id, size }) => {
  it('matches the original TF.js model on a photo crop (PSNR > 100 dB) and takes the recorded value range', async () => {
    const { entry, path } = requirePrepared(id);
    if (entry.preprocessing.kind !== 'super-resolution') throw new Error(`${id} is not an upscaler`);
    const { scale, inputMax, outputMax } = entry.preprocessing;
    const dir = dirname(entry.source.path);
    const files = await readTarballFiles(requireTarball(entry), (p) => p.startsWith(`${dir}/`));
    const json = JSON.parse((files.get(entry.source.path) as Buffer).toString('utf8')) as LayersModelJson;
    const tfModel = await loadLayersModel(json, (p) => files.get(`${dir}/${p}`) as Buffer);

    const input = await photo(inputMax, size);
    const onnx = await runOnnx(path, input.data, [1, 3, input.h, input.w]);
    const reference = predictNchw(tfModel, input.data, 3, input.h, input.w);
    tfModel.dispose();

    expect(onnx.dims).toEqual([1, 3, input.h * scale, input.w * scale]);
    expect(reference.dims).toEqual([...onnx.dims]);
    const agreement = psnr(reference.data, onnx.data, outputMax);
    expect(agreement).toBeGreaterThan(100);

    const resemblance = psnr(input.data, downscale(onnx.data, input.h, input.w, scale, outputMax), inputMax);
    expect(resemblance).toBeGreaterThan(25);
  });
});
