import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { DEFAULT_PRODUCT_PHOTO_LAYOUT } from '@imagestudio/contracts';
import { composeProductPhoto } from '@imagestudio/runtime/imaging';
import { FIXTURES } from '../test-support/models';
import { decodeImage } from './decode';
import { encodeImage } from './encode';
import { compositeAlpha, decontaminateEdges } from './matting';

/**
 * The product-photo engine with the default layout against the worker's own cut-out (compositeAlpha + encodeImage
 * after edge decontamination): the real coffee photo and its real ISNet matte.
 */
const COFFEE = fs.readFileSync(path.join(FIXTURES, 'coffee-300.png'));
const MATTE = fs.readFileSync(path.join(FIXTURES, 'coffee-300-mask.png'));

async function cutouts(input: Buffer) {
  const image = await decodeImage(input);
  const alpha = await sharp(MATTE).extractChannel(0).raw().toBuffer();
  decontaminateEdges(image.data, alpha, image.width, image.height);
  const composed = compositeAlpha(image.data, alpha, image.width, image.height);
  const today = await encodeImage(
    { data: composed.data, width: image.width, height: image.height, channels: composed.channels },
    'png',
    'compositeWithTrainedAlgorithmicMedia',
    'Image Studio background removal',
  );
  const engine = await composeProductPhoto({
    foreground: { data: image.data, width: image.width, height: image.height, channels: 4 },
    matte: { data: alpha, width: image.width, height: image.height },
    layout: DEFAULT_PRODUCT_PHOTO_LAYOUT,
    provenance: { source: 'compositeWithTrainedAlgorithmicMedia', tool: 'Image Studio background removal' },
  });
  return { today, engine };
}

describe('the default product-photo layout', () => {
  it("is today's cut-out byte for byte (same PNG file) for an opaque photo", async () => {
    const { today, engine } = await cutouts(COFFEE);
    expect([engine.width, engine.height, engine.format]).toEqual([300, 200, 'png']);
    expect(engine.data.equals(today)).toBe(true);
  });

  it("is today's cut-out within 1 per channel for a photo with its own alpha (the product rounds differently)", async () => {
    const withAlpha = await sharp(COFFEE)
      .ensureAlpha()
      .composite([
        { input: Buffer.from([0, 0, 0, 100]), raw: { width: 1, height: 1, channels: 4 }, tile: true, blend: 'dest-in' },
      ])
      .png()
      .toBuffer();
    const { today, engine } = await cutouts(withAlpha);
    const a = await sharp(today).raw().toBuffer();
    const b = await sharp(engine.data).raw().toBuffer();
    expect(b.length).toBe(a.length);
    let worst = 0;
    for (let i = 0; i < a.length; i += 4) {
      worst = Math.max(worst, Math.abs(a[i + 3]! - b[i + 3]!));
      // Where both are visible the colour is the same.
      if (a[i + 3]! > 0 && b[i + 3]! > 0)
        for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(a[i + c]! - b[i + c]!));
    }
    expect(worst).toBeLessThanOrEqual(1);
  });
});
