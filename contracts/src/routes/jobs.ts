import { compositionViewSchema, jobPageSchema, jobViewSchema } from '../api-schemas';
import { matteDraftBodySchema, matteDraftViewSchema } from '../matte-draft-schemas';
import { productPhotoFieldsSchema } from '../product-photo';
import { jobListQuerySchema } from '../job-requests';
import { defineRoutes } from './route';

/** The file parts of a re-composition and its preview. */
const composeFiles = {
  background_image: {
    type: 'string',
    contentMediaType: 'application/octet-stream',
    description: 'A background image (checked like the image), cover-fitted to the canvas',
  },
  matte: {
    type: 'string',
    contentMediaType: 'image/png',
    description: 'An edited matte: a greyscale PNG the size of compose_sources (white keeps, black removes)',
  },
} as const;

/** Reading, following, cancelling and deleting the caller's jobs; the history and projects lists. */
export const jobRoutes = defineRoutes('jobs', {
  list: {
    tag: 'Jobs',
    summary: "The caller's jobs, newest first",
    auth: 'key',
    query: jobListQuerySchema,
    reply: { kind: 'json', payload: jobPageSchema },
  },
  get: {
    tag: 'Jobs',
    summary: 'One job',
    auth: 'key',
    reply: { kind: 'json', payload: jobViewSchema },
  },
  events: {
    tag: 'Jobs',
    summary: 'Live job updates (Server-Sent Events: `job`, then `end`)',
    auth: 'key',
    reply: { kind: 'events', description: 'text/event-stream' },
  },
  compose: {
    tag: 'Jobs',
    summary:
      'Re-compose a succeeded remove-background job from its stored cut-out with other layout, background, shadow or format options (free)',
    auth: 'key',
    form: {
      fields: productPhotoFieldsSchema,
      files: composeFiles,
    },
    validatedBy: 'handler',
    reply: {
      kind: 'json',
      status: 201,
      payload: compositionViewSchema,
      description:
        "The new picture (also listed in the job view's compositions). 404 for another user's job or one that is not a succeeded remove-background job; 429 past the per-minute limit",
    },
  },
  composePreview: {
    tag: 'Jobs',
    summary:
      'Preview a re-composition: the same picture as compose, rendered by the same engine at most 1024 px on its longer side (free, not stored)',
    auth: 'key',
    form: { fields: productPhotoFieldsSchema, files: composeFiles },
    validatedBy: 'handler',
    reply: {
      kind: 'webp',
      description:
        'The picture as lossless WebP (Cache-Control: private, no-store), scaled so its longer side is at most 1024 px: margins, blur and shadows scale with it. The same 404 and 422 answers as compose; 429 past the per-minute limit of previews',
    },
  },
  matteDraft: {
    tag: 'Jobs',
    summary: "The touch-up brush's saved strokes for a background removal (empty when there is no draft)",
    auth: 'key',
    reply: {
      kind: 'json',
      payload: matteDraftViewSchema,
      description:
        "404 for another user's job or one that is not a succeeded remove-background job with its stored cut-out",
    },
  },
  saveMatteDraft: {
    tag: 'Jobs',
    summary:
      "Save the touch-up brush's strokes for a background removal, replacing the draft (free; the editor saves as strokes are made)",
    auth: 'key',
    body: matteDraftBodySchema,
    reply: {
      kind: 'json',
      payload: matteDraftViewSchema,
      description:
        "The saved draft. 422 on strokes past the caps or malformed; 404 as for GET; the draft goes with the job's files (deletion, retention)",
    },
  },
  discardMatteDraft: {
    tag: 'Jobs',
    summary: "Discard the touch-up brush's draft (the editor's reset)",
    auth: 'key',
    reply: { kind: 'json', payload: matteDraftViewSchema, description: 'The empty draft. 404 as for GET' },
  },
  cancel: {
    tag: 'Jobs',
    summary: 'Cancel an open job (refunded)',
    auth: 'key',
    reply: { kind: 'json', payload: jobViewSchema },
  },
  delete: {
    tag: 'Jobs',
    summary: "Delete a job's files (the history row stays)",
    auth: 'key',
    reply: { kind: 'json', payload: jobViewSchema },
  },
  history: {
    tag: 'Jobs',
    summary: 'Request history (same as GET /jobs)',
    auth: 'session',
    query: jobListQuerySchema,
    reply: { kind: 'json', payload: jobPageSchema },
  },
  projects: {
    tag: 'Jobs',
    summary: 'Succeeded jobs whose files still exist',
    auth: 'session',
    query: jobListQuerySchema.pick({ page: true }),
    reply: { kind: 'json', payload: jobPageSchema },
  },
});
