import sharp from 'sharp';

/**
 * Warm-up at worker start. onnxruntime's first run of a model is slow (on 2 CPU cores ISNet takes 1.4-1.6 s,
 * then about 1.15 s; with onnxruntime's memory pattern on, which the CPU sessions turn off, the first two took
 * ~2.2 s each), and the JavaScript stages around inference are not yet compiled. Without a warm-up the first
 * customers after a start or a deploy pay for that; with it, the worker announces itself only once it runs at
 * its steady speed. The benchmark warms every side up the same way before it times anything.
 */

/** A synthetic photo-like PNG (gradient background, a lit disc in front): something for every stage to chew on. */
export async function warmUpImage(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  const cx = width / 2;
  const cy = height / 2;
  const radius = Math.min(width, height) / 3;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const inside = Math.hypot(x - cx, y - cy) < radius;
      pixels[i] = inside ? 220 : Math.round((x / width) * 120);
      pixels[i + 1] = inside ? 140 : Math.round((y / height) * 160);
      pixels[i + 2] = inside ? 60 : 200;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** Runs `once` `runs` times in a row; returns the milliseconds of each run. */
export async function warmUp(runs: number, once: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await once();
    times.push(Math.round(performance.now() - t));
  }
  return times;
}
