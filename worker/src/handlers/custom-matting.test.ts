import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createLogger } from '@imagestudio/runtime';
import { loadWorkerConfig } from '../config';
import type { InferenceRuntime } from '../inference';
import { decodeImage } from '../imaging/decode';
import { predictAlpha } from '../pipelines/remove-background';
import { writeTestMattingModel, type TestMattingKind } from '../test-support/matting-model';
import { startCpuRuntime } from '../test-support/models';
import { GOLDEN_MIN_IOU, discIou, goldenImage, loadCustomMatting } from './custom-matting';

/**
 * The operator-model contract (models/README.md "Bring your own matting model") with tiny synthetic models:
 * a model that keeps it passes the start checks (shape, golden image) and runs; a wrong one is refused with one
 * error line that names the file and what is wrong.
 */

let runtime: InferenceRuntime;
let dir: string;

beforeAll(async () => {
  runtime = await startCpuRuntime();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'matting-contract-'));
});

afterAll(async () => {
  await runtime.close();
  await fs.rm(dir, { recursive: true, force: true });
});

/** A logger that keeps its error lines (and stays silent otherwise). */
function recordingLogger() {
  const errors: string[] = [];
  const logger = createLogger('silent', 'test');
  logger.error = ((obj: unknown, msg?: string) => {
    errors.push(typeof obj === 'string' ? obj : (msg ?? ''));
  }) as typeof logger.error;
  return { logger, errors };
}

async function load(kind: TestMattingKind | 'missing', env: Record<string, string> = {}) {
  const file = kind === 'missing' ? 'missing.onnx' : await writeTestMattingModel(dir, kind);
  const config = loadWorkerConfig({
    S3_ENDPOINT: 'http://127.0.0.1:9',
    MODELS_DIR: dir,
    WORKER_MATTING_MODEL_FILE: file,
    ...env,
  });
  const { logger, errors } = recordingLogger();
  const loaded = await loadCustomMatting(config, runtime, logger);
  return { loaded, errors, file: path.join(dir, file) };
}

describe('an operator matting model that keeps the contract', () => {
  it.each(['logits', 'probabilities', 'fp16'] as const)('passes the start checks (%s)', async (kind) => {
    const env: Record<string, string> =
      kind === 'probabilities' ? { WORKER_MATTING_MODEL_OUTPUT: 'probabilities' } : {};
    const { loaded, errors } = await load(kind, env);
    expect(errors).toEqual([]);
    expect(loaded).not.toBeNull();
    expect(loaded!.iou).toBeGreaterThanOrEqual(GOLDEN_MIN_IOU);
    expect(loaded!.spec).toMatchObject({
      width: 1024,
      height: 1024,
      input: 'pixels',
      output: 'matte',
    });
    // ImageNet's mean and std by default, on 0..255 values.
    expect(loaded!.spec.mean[0]).toBeCloseTo(123.675, 3);
    expect(loaded!.spec.std[2]).toBeCloseTo(57.375, 3);
    await loaded!.session.release();
  });

  it('cuts out a photo-sized disc through the job pipeline, at another size than its input', async () => {
    const { loaded } = await load('logits', { WORKER_MATTING_MODEL_SIZE: '256' });
    const { rgb, disc } = goldenImage(300);
    const png = await sharp(rgb, { raw: { width: 300, height: 300, channels: 3 } })
      .png()
      .toBuffer();
    const alpha = await predictAlpha(loaded!.session, loaded!.spec, await decodeImage(png));
    const matte = Float32Array.from(alpha, (a) => a / 255);
    expect(discIou(matte, disc)).toBeGreaterThan(0.97);
    await loaded!.session.release();
  });
});

describe('a wrong model', () => {
  it.each([
    ['three-channel-output', {}, 'output matte is [1,3,height,width], expected [1,1,1024,1024]'],
    ['inverted', {}, 'fails the golden check: its matte of a plain disc overlaps the disc by IoU 0.000'],
    ['fixed-512', {}, 'input pixels is [1,3,512,512], expected [1,3,1024,1024]'],
    ['fp16-input', {}, 'input pixels is float16, expected float32 (convert an fp16 model with keep_io_types)'],
    [
      'logits',
      { WORKER_MATTING_MODEL_OUTPUT: 'probabilities' },
      'not probabilities 0..1 (set WORKER_MATTING_MODEL_OUTPUT=logits if they are logits)',
    ],
    ['missing', {}, 'is not there'],
  ] as const)('is refused at start with one line (%s)', async (kind, env, reason) => {
    const { loaded, errors, file } = await load(kind, env);
    expect(loaded).toBeNull();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`hq matting model refused: ${file} `);
    expect(errors[0]).toContain(reason);
    expect(errors[0]).not.toContain('\n');
  });

  it('is refused when the file is no ONNX model', async () => {
    await fs.writeFile(path.join(dir, 'notes.onnx'), 'not a model');
    const config = loadWorkerConfig({
      S3_ENDPOINT: 'http://127.0.0.1:9',
      MODELS_DIR: dir,
      WORKER_MATTING_MODEL_FILE: 'notes.onnx',
    });
    const { logger, errors } = recordingLogger();
    expect(await loadCustomMatting(config, runtime, logger)).toBeNull();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/refused: .*notes\.onnx (is not an ONNX model|cannot be loaded)/);
  });

  it('is not looked for when no file is set', async () => {
    const config = loadWorkerConfig({ S3_ENDPOINT: 'http://127.0.0.1:9', MODELS_DIR: dir });
    const { logger, errors } = recordingLogger();
    expect(await loadCustomMatting(config, runtime, logger)).toBeNull();
    expect(errors).toEqual([]);
  });
});

describe('the settings', () => {
  it('read R,G,B triples and refuse anything else', () => {
    const config = loadWorkerConfig({
      S3_ENDPOINT: 'http://127.0.0.1:9',
      WORKER_MATTING_MODEL_MEAN: '0.5, 0.5,0.5',
      WORKER_MATTING_MODEL_STD: '1,1,1',
    });
    expect(config.WORKER_MATTING_MODEL_MEAN).toEqual([0.5, 0.5, 0.5]);
    expect(config.WORKER_MATTING_MODEL_STD).toEqual([1, 1, 1]);
    expect(() => loadWorkerConfig({ S3_ENDPOINT: 'http://127.0.0.1:9', WORKER_MATTING_MODEL_STD: '0.2,0.2' })).toThrow(
      /WORKER_MATTING_MODEL_STD/,
    );
  });
});
