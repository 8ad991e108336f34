import { Router } from 'express';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoutes } from '../../http/route-table';
import { currentUser } from '../../http/current-user';
import { admitUpload } from '../uploads';
import { composeLimit, readComposeForm } from './compose-form';
import { composeJob } from './compose.service';
import { composePreview, composePreviewLimit } from './compose-preview.service';
import { streamJob } from './job-stream';
import { discardMatteDraft, getMatteDraft, saveMatteDraft } from './matte-draft.service';
import { cancelJob, deleteJob, getJob, listJobs, ownedJob } from './jobs.service';

/** Reading, following, cancelling and deleting the caller's jobs; history and projects lists. */
export function jobsRouter(ctx: AppContext) {
  const router = Router();
  const r = routes.jobs;

  return mountRoutes(router, r, {
    list: ({ req, query }) => listJobs(ctx, currentUser(req).id, query),
    history: ({ req, query }) => listJobs(ctx, currentUser(req).id, query),
    projects: ({ req, query }) => listJobs(ctx, currentUser(req).id, { page: query.page, projectsOnly: true }),
    get: ({ req, params }) => getJob(ctx, currentUser(req).id, params.id),
    events: async ({ req, res, params }) => {
      streamJob(ctx, req, res, await ownedJob(ctx, currentUser(req).id, params.id));
    },
    // A free re-composition of a background removal's stored cut-out: 201 with the new picture.
    compose: {
      handler: async ({ req, res, params }) =>
        composeJob(ctx, currentUser(req).id, params.id, await readComposeForm(req, res)),
      before: [composeLimit(ctx), admitUpload(ctx)],
    },
    // The same picture at preview size, for the editor: the image itself, kept nowhere.
    composePreview: {
      handler: async ({ req, res, params }) => {
        const preview = await composePreview(ctx, currentUser(req).id, params.id, await readComposeForm(req, res));
        res.set('Cache-Control', 'private, no-store').type('image/webp').send(preview.data);
      },
      before: [composePreviewLimit(ctx), admitUpload(ctx)],
    },
    // The touch-up brush's draft of the editor: its strokes, saved as they are made.
    matteDraft: ({ req, params }) => getMatteDraft(ctx, currentUser(req).id, params.id),
    saveMatteDraft: ({ req, params, body }) => saveMatteDraft(ctx, currentUser(req).id, params.id, body.strokes),
    discardMatteDraft: ({ req, params }) => discardMatteDraft(ctx, currentUser(req).id, params.id),
    cancel: ({ req, params }) => cancelJob(ctx, currentUser(req).id, params.id),
    delete: ({ req, params }) => deleteJob(ctx, currentUser(req).id, params.id),
  });
}
