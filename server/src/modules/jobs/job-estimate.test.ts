import { secondsLeft } from '@imagestudio/contracts';
import { expectedRunMs, workUnits } from './job-estimate';

const run = (ms: number, params: Record<string, unknown>, w: number | null = null, h: number | null = null) => ({
  ms,
  params,
  input_width: w,
  input_height: h,
});

describe('time-left estimates', () => {
  it('measure upscaling by output megapixels and compare only runs of the same factor', () => {
    expect(workUnits('upscale', run(0, { factor: 2 }, 1000, 500))).toBe(2);
    const runs = [
      run(4000, { factor: 2 }, 1000, 500),
      run(6000, { factor: 2 }, 1000, 500),
      run(60_000, { factor: 4 }, 1000, 500),
    ];
    // 2 and 3 s per output MP at x2: a 4 MP output is expected to take the median, 2.5 s x 4.
    expect(expectedRunMs('upscale', run(0, { factor: 2 }, 1000, 1000), runs)).toBe(10_000);
  });

  it('measure generation by generated megapixels and background removal per image', () => {
    expect(workUnits('generate', run(0, { size: '1000x1000', count: 2 }))).toBe(2);
    expect(expectedRunMs('remove-background', run(0, {}, 4000, 3000), [run(1500, {}, 300, 200)])).toBe(1500);
  });

  it('know nothing without comparable runs or without the job size', () => {
    expect(expectedRunMs('upscale', run(0, { factor: 4 }, 100, 100), [run(1000, { factor: 2 }, 100, 100)])).toBeNull();
    expect(expectedRunMs('upscale', run(0, { factor: 2 }), [run(1000, { factor: 2 }, 100, 100)])).toBeNull();
  });

  it('count down from the expected run, then follow the pace of the job itself', () => {
    const started = new Date(10_000);
    expect(
      secondsLeft(8000, { status: 'running', progress: 10, started_at: started, queuePosition: null }, 13_000),
    ).toBe(5);
    // 20 s in at 80%: a quarter of the time spent is left.
    expect(
      secondsLeft(8000, { status: 'running', progress: 80, started_at: started, queuePosition: null }, 30_000),
    ).toBe(5);
    expect(secondsLeft(8000, { status: 'queued', progress: 0, started_at: null, queuePosition: 3 })).toBe(24);
    expect(secondsLeft(null, { status: 'queued', progress: 0, started_at: null, queuePosition: 1 })).toBeNull();
    expect(
      secondsLeft(8000, { status: 'succeeded', progress: 100, started_at: started, queuePosition: null }),
    ).toBeNull();
  });
});
