import { planSize } from './size';

const SD = { native: { height: 64, width: 64 }, multiple: 8, pixelsPerLatent: 8 };

describe('planSize', () => {
  it('generates natively on a dynamic UNet when the size fits', () => {
    const plan = planSize({ width: 512, height: 512 }, { ...SD, dynamic: true });
    expect(plan).toEqual({
      latent: { height: 64, width: 64 },
      generated: { width: 512, height: 512 },
      requested: { width: 512, height: 512 },
    });
    expect(planSize({ width: 384, height: 256 }, { ...SD, dynamic: true }).latent).toEqual({ height: 32, width: 48 });
  });

  it('keeps the aspect ratio at the native area for larger sizes and says it resized', () => {
    const plan = planSize({ width: 1536, height: 1024 }, { ...SD, dynamic: true });
    // 64*64 cells at 3:2 -> 78.4 x 52.3, rounded to multiples of 8.
    expect(plan.latent).toEqual({ height: 56, width: 80 });
    expect(plan.generated).toEqual({ width: 640, height: 448 });
    expect(plan.note).toBe('generated at 640x448 and resized to 1536x1024');
    expect(planSize({ width: 1024, height: 1024 }, { ...SD, dynamic: true }).generated).toEqual({
      width: 512,
      height: 512,
    });
  });

  it('uses the one shape of a fixed UNet', () => {
    const plan = planSize({ width: 1024, height: 1536 }, { ...SD, dynamic: false });
    expect(plan.latent).toEqual({ height: 64, width: 64 });
    expect(plan.note).toBe('generated at 512x512 (the model takes only this size) and resized to 1024x1536');
    expect(planSize({ width: 512, height: 512 }, { ...SD, dynamic: false }).note).toBeUndefined();
  });
});
