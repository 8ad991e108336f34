import type { Request, Response } from 'express';
import sharp from 'sharp';
import yazl from 'yazl';
import { tenthsToTokens, type JobResult } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import type { JobRow } from '../jobs';
import type { RemoveBgRequest } from './removebg-fields';

type Box = { left: number; top: number; width: number; height: number };

/** The image answered and its facts, for the headers and the JSON reply. */
interface Answer {
  bytes: Buffer;
  contentType: string;
  width: number;
  height: number;
  foreground: Box;
  /** The cut-out's confidence (0-1), null from a worker from before the score. */
  confidence: number | null;
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
};

/** A ZIP of `color.jpg` (the colours, no alpha) and `alpha.png` (the grey matte), as remove.bg's clients read. */
function zipOf(color: Buffer, alpha: Buffer): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(color, 'color.jpg', { compress: false });
  zip.addBuffer(alpha, 'alpha.png');
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/**
 * `format=zip`: from the job's stored compose sources when the result is the plain cut-out (the decontaminated
 * foreground and the matte, full size); otherwise (a layout changed the picture) from the result itself, split
 * into its colour and its alpha.
 */
async function zipAnswer(ctx: AppContext, result: JobResult, image: Buffer, plain: boolean): Promise<Buffer> {
  const sources = result.sources;
  if (plain && sources) {
    const [foreground, matte] = await Promise.all([
      ctx.storage.get(sources.foregroundKey),
      ctx.storage.get(sources.matteKey),
    ]);
    const color = await sharp(foreground).removeAlpha().jpeg({ quality: 95, chromaSubsampling: '4:4:4' }).toBuffer();
    const alpha = await sharp(matte).toColourspace('b-w').png().toBuffer();
    return zipOf(color, alpha);
  }
  const pixels = sharp(image).ensureAlpha();
  const color = await pixels.clone().removeAlpha().jpeg({ quality: 95, chromaSubsampling: '4:4:4' }).toBuffer();
  const alpha = await pixels.clone().extractChannel('alpha').toColourspace('b-w').png().toBuffer();
  return zipOf(color, alpha);
}

/** The succeeded job's answer: its one result file (or the ZIP built from it) and where the subject is. */
export async function buildAnswer(ctx: AppContext, row: JobRow, request: RemoveBgRequest): Promise<Answer> {
  const result = row.result!;
  const file = result.files[0]!;
  const bytes = await ctx.storage.get(file.key);
  // The tool reports the subject's box in its result; a worker from before boxes were kept: the whole image.
  const box = result.subjectBoxes?.[0];
  const foreground = box ?? { left: 0, top: 0, width: file.width, height: file.height };
  const confidence = result.cutoutConfidence ?? null;
  if (request.format === 'zip') {
    const plain = !request.crop && request.scale === null && !request.bgColor && !request.addShadow;
    const zip = await zipAnswer(ctx, result, bytes, plain && request.channels === 'rgba');
    return {
      bytes: zip,
      contentType: 'application/zip',
      width: file.width,
      height: file.height,
      foreground,
      confidence,
    };
  }
  return {
    bytes,
    contentType: MIME[file.format] ?? 'application/octet-stream',
    width: file.width,
    height: file.height,
    foreground,
    confidence,
  };
}

interface ReplyFacts {
  costTenths: number;
  reducedTo: { width: number; height: number } | null;
}

/**
 * 200 with the image bytes and their Content-Type, or with `Accept: application/json` remove.bg's
 * `{"data":{"result_b64", "foreground_*"}}`; the headers remove.bg's clients read either way.
 */
export function sendAnswer(req: Request, res: Response, answer: Answer, facts: ReplyFacts): void {
  const f = answer.foreground;
  res.set({
    'X-Width': String(answer.width),
    'X-Height': String(answer.height),
    'X-Credits-Charged': String(tenthsToTokens(facts.costTenths)),
    // No classifier decides the foreground type: remove.bg's value for "none of the others", never a guess.
    'X-Type': 'other',
    'X-Foreground-Top': String(f.top),
    'X-Foreground-Left': String(f.left),
    'X-Foreground-Width': String(f.width),
    'X-Foreground-Height': String(f.height),
    'Cache-Control': 'no-store',
    // Ours, not remove.bg's (Photoroom's API gives such a score): clients that do not know it ignore it.
    ...(answer.confidence !== null && { 'X-Cutout-Confidence': answer.confidence.toFixed(2) }),
    ...(facts.reducedTo && {
      'X-Max-Width': String(facts.reducedTo.width),
      'X-Max-Height': String(facts.reducedTo.height),
    }),
  });
  if (req.accepts([answer.contentType, 'application/json']) === 'application/json' && acceptsJsonExplicitly(req)) {
    res.status(200).json({
      data: {
        result_b64: answer.bytes.toString('base64'),
        foreground_top: f.top,
        foreground_left: f.left,
        foreground_width: f.width,
        foreground_height: f.height,
        cutout_confidence: answer.confidence,
      },
    });
    return;
  }
  res.status(200).type(answer.contentType).send(answer.bytes);
}

/** JSON only when asked for by name: `Accept: *\/*` (or none) gets the image, as from remove.bg. */
function acceptsJsonExplicitly(req: Request): boolean {
  return /application\/json/i.test(req.get('Accept') ?? '');
}
