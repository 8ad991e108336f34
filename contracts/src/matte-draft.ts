import type { z } from 'zod';
import type { matteDraftStrokeSchema, matteDraftViewSchema } from './matte-draft-schemas';

/**
 * The touch-up brush's draft of a background removal (`PUT/GET/DELETE /api/jobs/{id}/matte-draft`): the editor's
 * strokes as data, saved on the server as they are made so they survive a reload. The strokes, not the painted
 * matte: a few KB where the matte would be megabytes, and painted again exactly as the brush painted them. This
 * module is zod-free for the browser bundle; the schemas are in matte-draft-schemas.ts.
 */

/** At most this many strokes in one draft. */
export const MATTE_DRAFT_MAX_STROKES = 500;
/**
 * At most this many points in all of a draft's strokes together. A point is `[x, y]` to a tenth of a pixel, about
 * 14 bytes of JSON, so a full draft stays under the API's 100 KB JSON body limit.
 */
export const MATTE_DRAFT_MAX_POINTS = 6000;
/** The largest coordinate or brush size (matte pixels): beyond any stored cut-out (8000 px a side at most) and its brush. */
export const MATTE_DRAFT_MAX_COORDINATE = 65_536;

/** The refusals of a draft (422 on `strokes`), translated by their text (server.json, `server.matte_draft.*`). */
export const MATTE_DRAFT_MESSAGES = {
  tooManyStrokes: `A touch-up draft holds at most ${MATTE_DRAFT_MAX_STROKES} strokes.`,
  tooManyPoints: `A touch-up draft holds at most ${MATTE_DRAFT_MAX_POINTS} points in all.`,
  stroke:
    'Each stroke must have a mode (erase or restore), a brush size above 0 and at least one point [x, y] in matte pixels.',
} as const;

/** One stroke as the draft stores it: `points` as `[x, y]` pairs in full-size matte pixels. */
export type MatteDraftStroke = z.infer<typeof matteDraftStrokeSchema>;
/** GET/PUT/DELETE /api/jobs/{id}/matte-draft's reply. */
export type MatteDraftView = z.infer<typeof matteDraftViewSchema>;
