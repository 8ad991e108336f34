/**
 * Measured comparison behind DEFAULT_EDGE_REFINEMENT (worker/README.md "Edge refinement").
 * `npx tsx worker/src/scripts/compare-edge-refinement.ts [photos dir] [long side, default 1024]`
 *
 * Ground truth by construction: for each photo P, its ISNet alpha a and its pixels F are taken as the true
 * foreground; it is composited onto another photo B (C = aF + (1-a)B). Each variant then cuts C out, and the
 * cut-out is placed on a neutral grey: the error against aF + (1-a)grey on edge pixels (0 < a < 1) is what a
 * user sees as halos and lost hair. Alpha error over the whole image is reported too. Decontamination is also
 * run on working grids of other sizes, the speed/quality trade behind DECONTAMINATION_GRID.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { defaultModel } from '../models';
import { InferenceRuntime } from '../inference';
import { decodeImage } from '../imaging/decode';
import {
  compositeAlpha,
  DECONTAMINATION_GRID,
  decontaminateEdges,
  decontaminationFactor,
  guidedFilterAlpha,
} from '../imaging/matting';
import { type EdgeRefinement, predictAlpha } from '../pipelines/remove-background';

interface Variant {
  label: string;
  refinement: EdgeRefinement;
  /** Long side of decontamination's working grid (DECONTAMINATION_GRID when absent). */
  grid?: number;
}

const VARIANTS: Variant[] = [
  { label: 'none', refinement: 'none' },
  { label: 'guided', refinement: 'guided' },
  { label: 'decontaminate', refinement: 'decontaminate' },
  { label: 'guided-decontaminate', refinement: 'guided-decontaminate' },
  ...[1024, 512, 128]
    .filter((g) => g !== DECONTAMINATION_GRID)
    .map((grid) => ({ label: `decontaminate, grid ${grid}`, refinement: 'decontaminate' as const, grid })),
];

async function main(): Promise<void> {
  const dir = process.argv[2] ?? path.resolve(__dirname, '..', '..', '..', '..', 'shared', 'fixtures', 'photos');
  const size = Number(process.argv[3] ?? 1024);
  const photos = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.png'))
    .sort();
  const model = defaultModel('background-removal');
  if (!model) throw new Error('no background-removal model in the manifest');
  const runtime = await InferenceRuntime.start({
    providers: ['cpu'],
    requireGpu: false,
    cpuThreads: os.availableParallelism(),
  });
  const session = await runtime.load(
    path.join(path.resolve(__dirname, '..', '..', '..', 'models', '.cache'), model.file),
  );
  const totals = Object.fromEntries(VARIANTS.map((v) => [v.label, { edge: 0, alpha: 0, ms: 0 }]));
  for (let k = 0; k < photos.length; k++) {
    const fg = await decodeImage(
      await sharp(path.join(dir, photos[k]!)).resize(size, size, { fit: 'inside' }).png().toBuffer(),
    );
    const { width: w, height: h } = fg;
    const bg = await sharp(path.join(dir, photos[(k + 1) % photos.length]!))
      .resize(w, h, { fit: 'cover' })
      .removeAlpha()
      .raw()
      .toBuffer();
    const a = await predictAlpha(session, model, fg);
    const comp = Buffer.alloc(w * h * 4);
    for (let i = 0; i < w * h; i++) {
      const t = a[i]! / 255;
      for (let c = 0; c < 3; c++) comp[i * 4 + c] = Math.round(fg.data[i * 4 + c]! * t + bg[i * 3 + c]! * (1 - t));
      comp[i * 4 + 3] = 255;
    }
    const truth = compositeAlpha(fg.data, a, w, h, { backgroundColor: '#808080' }).data;
    const predicted = await predictAlpha(session, model, { ...fg, data: comp });
    for (const { label, refinement: v, grid } of VARIANTS) {
      const t0 = performance.now();
      const rgba = Buffer.from(comp);
      const alpha =
        v === 'none' || v === 'decontaminate'
          ? predicted
          : guidedFilterAlpha(rgba, predicted, w, h, Math.max(2, Math.round(Math.max(w, h) / 256)), 1e-4);
      const factor = decontaminationFactor(w, h, grid);
      if (v === 'decontaminate' || v === 'guided-decontaminate') decontaminateEdges(rgba, alpha, w, h, factor);
      totals[label]!.ms += performance.now() - t0;
      const out = compositeAlpha(rgba, alpha, w, h, { backgroundColor: '#808080' }).data;
      let edgeErr = 0;
      let edgeN = 0;
      let alphaErr = 0;
      for (let i = 0; i < w * h; i++) {
        alphaErr += Math.abs(alpha[i]! - a[i]!);
        if (a[i]! > 0 && a[i]! < 255) {
          for (let c = 0; c < 3; c++) edgeErr += Math.abs(out[i * 3 + c]! - truth[i * 3 + c]!);
          edgeN += 3;
        }
      }
      totals[label]!.edge += edgeErr / Math.max(1, edgeN) / photos.length;
      totals[label]!.alpha += alphaErr / (w * h) / photos.length;
    }
  }
  await runtime.close();
  console.log(`photos: ${photos.join(', ')} (at most ${size}px), composited onto the next photo`);
  console.log(
    '| refinement | edge colour error on grey (mean abs, 0..255) | alpha error (mean abs, 0..255) | ms per image |',
  );
  console.log('|---|---|---|---|');
  for (const { label } of VARIANTS) {
    const t = totals[label]!;
    console.log(`| ${label} | ${t.edge.toFixed(2)} | ${t.alpha.toFixed(2)} | ${(t.ms / photos.length).toFixed(0)} |`);
  }
}

void main();
