import type { RequestHandler } from 'express';
import sharp from 'sharp';
import { PRODUCT_PHOTO_MESSAGES } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { consumeOrThrow } from '../../http/rate-limits';
import { currentUser } from '../../http/current-user';
import { withinRenderSlots } from './compose-budget';
import { readComposeRequest, readComposeSources, renderComposition, type ComposeRequest } from './compose.service';

/**
 * The longest side of a preview. The editor shows it at most ~800 CSS px wide, so 1024 keeps it sharp on most
 * screens while the reply stays small (lossless WebP: a photo at 1024 px is about 1 MB).
 */
export const PREVIEW_MAX_SIDE = 1024;

/**
 * Previews per re-composition allowed per minute: the editor asks for one after each settled change (a slider
 * dragged for a few seconds makes several), so their limit is this many times compose's.
 */
const PREVIEWS_PER_COMPOSE = 8;

/** At most PREVIEWS_PER_COMPOSE x COMPOSE_RATE_PER_MINUTE previews per user per minute (Redis); 429 beyond. */
export function composePreviewLimit(ctx: AppContext): RequestHandler {
  const perMinute = ctx.config.COMPOSE_RATE_PER_MINUTE * PREVIEWS_PER_COMPOSE;
  const limiter = ctx.services.rateLimits.named('compose-preview', perMinute, 60);
  return (req, _res, next) => {
    consumeOrThrow(limiter, currentUser(req).id, PRODUCT_PHOTO_MESSAGES.tooManyCompositions).then(() => next(), next);
  };
}

export interface ComposePreview {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * POST /api/jobs/{id}/compose/preview: the picture compose would make from the same request, after the same checks
 * (404 for another user's job, the same 422s), stored nowhere and free. It is the download itself, scaled: the
 * engine renders the full-size picture with the very call compose makes (`renderComposition`), in the download's
 * format when that is JPEG (its flattening on white and its compression show) and as PNG otherwise, and that is
 * resized to at most PREVIEW_MAX_SIDE px on its longer side and sent as lossless WebP. Rendering at the preview's
 * size instead (max_side) was tried: libvips' resampling of the subject and the blurred background's working
 * scale differ between sizes, by a mean of 0.9 to 2.5 per channel on the fixture photos, where the editor promises
 * the file.
 */
export async function composePreview(
  ctx: AppContext,
  userId: string,
  jobId: string,
  request: ComposeRequest,
): Promise<ComposePreview> {
  const checked = await readComposeRequest(ctx, userId, jobId, request);
  const { layout, backgroundImage } = checked;
  // In the render slots compose uses (a preview is a full-size render too), not in the customer's hourly budget.
  const picture = await withinRenderSlots(ctx, async () =>
    renderComposition({
      ...(await readComposeSources(ctx, checked)),
      backgroundImage,
      layout: { ...layout, outputFormat: layout.outputFormat === 'jpeg' ? 'jpeg' : 'png' },
      opaque: true,
    }),
  );
  const k = Math.min(1, PREVIEW_MAX_SIDE / Math.max(picture.width, picture.height));
  const width = Math.max(1, Math.round(picture.width * k));
  const height = Math.max(1, Math.round(picture.height * k));
  const data = await sharp(picture.data)
    .keepIccProfile()
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .webp({ lossless: true, effort: 2 })
    .toBuffer();
  return { data, width, height };
}
