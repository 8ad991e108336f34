import { z } from 'zod';
import {
  MATTE_DRAFT_MAX_COORDINATE,
  MATTE_DRAFT_MAX_POINTS,
  MATTE_DRAFT_MAX_STROKES,
  MATTE_DRAFT_MESSAGES,
} from './matte-draft';

// Every part of a stroke refuses with the one sentence that says what a stroke is (translated by its text).
const error = MATTE_DRAFT_MESSAGES.stroke;
const coordinate = z
  .number({ error })
  .min(-MATTE_DRAFT_MAX_COORDINATE, { error })
  .max(MATTE_DRAFT_MAX_COORDINATE, { error });

export const matteDraftStrokeSchema = z
  .object(
    {
      mode: z.enum(['erase', 'restore'], { error }),
      size: z
        .number({ error })
        .positive({ error })
        .max(MATTE_DRAFT_MAX_COORDINATE, { error })
        .describe("The brush's diameter in matte pixels"),
      points: z
        .array(z.tuple([coordinate, coordinate], { error }), { error })
        .min(1, { error })
        .describe(
          'The points the brush went through, [x, y] in full-size matte pixels (a pointer may leave the picture)',
        ),
    },
    { error },
  )
  .meta({ id: 'MatteDraftStroke' });

/** PUT's body: the whole list of strokes, oldest first (each save replaces the draft). */
export const matteDraftBodySchema = z.object({
  strokes: z
    .array(matteDraftStrokeSchema, { error })
    .max(MATTE_DRAFT_MAX_STROKES, { error: MATTE_DRAFT_MESSAGES.tooManyStrokes })
    .refine((strokes) => strokes.reduce((n, s) => n + s.points.length, 0) <= MATTE_DRAFT_MAX_POINTS, {
      error: MATTE_DRAFT_MESSAGES.tooManyPoints,
    })
    .describe(
      `The touch-up strokes, oldest first: at most ${MATTE_DRAFT_MAX_STROKES} strokes and ${MATTE_DRAFT_MAX_POINTS} points in all`,
    ),
});

export const matteDraftViewSchema = z
  .object({
    strokes: z.array(matteDraftStrokeSchema).describe('The saved strokes, oldest first; empty when there is no draft'),
    updated_at: z.string().nullable().describe('When the draft was last saved; null when there is none'),
  })
  .meta({ id: 'MatteDraft' });
