import { Router, type RequestHandler } from 'express';
import { jobListQuerySchema } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { currentUser, requireUser } from '../auth/auth-guards';
import { sendOk } from '../../http/envelope';
import { admitUpload } from '../uploads/upload-budget';
import { composeLimit, readComposeForm } from './compose-form';
import { composeJob } from './compose.service';
import { streamJob } from './job-stream';
import { cancelJob, deleteJob, getJob, listJobs, ownedJob } from './jobs.service';

/** Reading, following, cancelling and deleting the caller's jobs; history and projects lists. */
export function jobsRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(['/jobs', '/user/projects', '/user/request-history'], requireUser);

  const history: RequestHandler = async (req, res) => {
    const q = jobListQuerySchema.parse(req.query);
    sendOk(res, await listJobs(ctx, currentUser(req).id, q));
  };
  router.get('/jobs', history);
  router.get('/user/request-history', history);

  router.get('/user/projects', async (req, res) => {
    const { page } = jobListQuerySchema.parse(req.query);
    sendOk(res, await listJobs(ctx, currentUser(req).id, { page, projectsOnly: true }));
  });

  router.get('/jobs/:id', async (req, res) => {
    sendOk(res, await getJob(ctx, currentUser(req).id, req.params.id));
  });

  router.get('/jobs/:id/events', async (req, res) => {
    streamJob(ctx, req, res, await ownedJob(ctx, currentUser(req).id, req.params.id));
  });

  router.post('/jobs/:id/cancel', async (req, res) => {
    sendOk(res, await cancelJob(ctx, currentUser(req).id, req.params.id));
  });

  // A free re-composition of a background removal's stored cut-out: 201 with the new picture.
  router.post('/jobs/:id/compose', composeLimit(ctx), admitUpload(ctx), async (req, res) => {
    const request = await readComposeForm(req, res);
    sendOk(res, await composeJob(ctx, currentUser(req).id, String(req.params.id), request), {}, 201);
  });

  router.delete('/jobs/:id', async (req, res) => {
    sendOk(res, await deleteJob(ctx, currentUser(req).id, req.params.id));
  });

  return router;
}
