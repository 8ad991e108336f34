import path from 'node:path';
import sharp from 'sharp';
import { formatJobStage, msLeft } from '@imagestudio/contracts';
import { createLogger } from '@imagestudio/runtime';
import { loadWorkerConfig } from '../config';
import type { InferenceRuntime } from '../inference';
import { loadUpscalers } from '../handlers/upscale';
import { FIXTURES, MODELS_DIR, startCpuRuntime } from '../test-support/models';
import { upscaleImage } from './upscale';

/**
 * The time left shown for a tiled upscale, checked against a real run: the estimate taken from the job's own
 * progress reports at 25%, 50% and 75% of its tiles, with no earlier runs to learn from, is within 30% of the
 * time the run really still took (encoding included).
 */
describe('time left of a tiled upscale', () => {
  let runtime: InferenceRuntime;

  beforeAll(async () => {
    runtime = await startCpuRuntime();
  }, 60_000);
  afterAll(() => runtime.close());

  it('is within 30% of the real rest at 25, 50 and 75% of the tiles', async () => {
    const config = loadWorkerConfig({ S3_ENDPOINT: 'http://127.0.0.1:1', MODELS_DIR });
    const { runs } = await loadUpscalers({ config, runtime, logger: createLogger('silent', 'test') });
    const upscaler = runs.get('fast')?.get(2);
    if (!upscaler) throw new Error('fast x2 not loaded: run npm run models');
    // 16 tiles of 96 px: enough units for a rate, short enough for a unit test.
    const input = await sharp(path.join(FIXTURES, 'coffee-300.png')).resize(384, 384).png().toBuffer();
    const reports: { at: number; done: number; total: number }[] = [];
    const started = Date.now();
    await upscaleImage(upscaler, input, { outputFormat: 'png', tileSize: 96 }, undefined, async (done, total) => {
      reports.push({ at: Date.now(), done, total });
    });
    const finished = Date.now();
    const total = reports[0]!.total;
    expect(total).toBeGreaterThanOrEqual(8);

    for (const share of [0.25, 0.5, 0.75]) {
      const report = reports.find((r) => r.done >= total * share)!;
      const estimate = msLeft(
        null,
        {
          status: 'running',
          progress: Math.round((100 * report.done) / total),
          started_at: new Date(started),
          queuePosition: null,
          stage: formatJobStage('processing', report.done, total),
        },
        report.at,
      )!;
      const rest = finished - report.at;
      expect(Math.abs(estimate - rest) / rest).toBeLessThan(0.3);
    }
  }, 120_000);
});
