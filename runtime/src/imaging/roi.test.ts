import sharp from 'sharp';
import { DEFAULT_PRODUCT_PHOTO_LAYOUT, type ProductPhotoLayout } from '@imagestudio/contracts';
import { composeProductPhoto } from './compose';

/** The provenance the engine writes into each result; any tool name does here. */
const provenance = { source: 'compositeWithTrainedAlgorithmicMedia', tool: 'test' } as const;

/** Two subjects in one 100x60 matte: a 10x10 square at (10, 20) and a 20x20 one at (60, 20). */
function twoSubjects(): { data: Buffer; width: number; height: number } {
  const width = 100;
  const height = 60;
  const data = Buffer.alloc(width * height);
  for (let y = 20; y < 30; y += 1) data.fill(255, y * width + 10, y * width + 20);
  for (let y = 20; y < 40; y += 1) data.fill(255, y * width + 60, y * width + 80);
  return { data, width, height };
}

const px = (value: number) => ({ value, unit: 'px' as const });
const pct = (value: number) => ({ value, unit: '%' as const });

describe('the roi layout option', () => {
  it('counts only the subject inside the box: the matte is cleared outside it, before crop and subject box', async () => {
    const matte = twoSubjects();
    const foreground = { data: Buffer.alloc(100 * 60 * 3, 200), width: 100, height: 60, channels: 3 as const };
    const layout: ProductPhotoLayout = {
      ...DEFAULT_PRODUCT_PHOTO_LAYOUT,
      roi: { left: px(0), top: px(0), right: pct(50), bottom: pct(100) },
    };
    const plain = await composeProductPhoto({ provenance, foreground, matte, layout, opaque: true });
    expect(plain.subjectBox).toEqual({ left: 10, top: 20, width: 10, height: 10 });
    const alpha = await sharp(plain.data).extractChannel(3).raw().toBuffer();
    expect(alpha[25 * 100 + 15]).toBe(255); // inside the box: kept
    expect(alpha[25 * 100 + 70]).toBe(0); // the second subject, outside: cleared

    const cropped = await composeProductPhoto({
      provenance,
      foreground,
      matte,
      layout: { ...layout, cropToSubject: true },
    });
    expect([cropped.width, cropped.height]).toEqual([10, 10]);

    const whole = await composeProductPhoto({ provenance, foreground, matte, layout: DEFAULT_PRODUCT_PHOTO_LAYOUT });
    expect(whole.subjectBox).toEqual({ left: 10, top: 20, width: 70, height: 20 });
  });
});
