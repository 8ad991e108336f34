import { Router, type Request } from 'express';
import { TOOLS, routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoute } from '../../http/route';
import { currentUser } from '../../http/current-user';
import { requireVerifiedEmail } from '../auth';
import { readMultipart, admitUpload } from '../uploads';
import { affordCheapest } from './afford-cheapest';
import { submitLimit } from './submit-limit';
import { quote } from './tool-quote';
import { readToolSettings } from '../tool-definitions';
import { startTool, type SubmitMeta } from './tools.service';
import { replyOptions, replyToToolCall } from './tool-reply';
import { toolStatus } from '../workers';
import { rerunJob } from './rerun.service';

function meta(req: Request): SubmitMeta {
  const key = req.get('Idempotency-Key');
  return {
    userId: currentUser(req).id,
    idempotencyKey: key === undefined ? undefined : key,
    requestId: String(req.id),
  };
}

/** The image tools: start a job (202 + the job), quote a cost, and which tools can run now. */
export function toolsRouter(ctx: AppContext): Router {
  const router = Router();
  const guards = [requireVerifiedEmail(ctx), submitLimit(ctx)];

  // One POST per tool: a JSON body, or a multipart form with the image in `image` for the tools that take one.
  for (const tool of TOOLS) {
    const { name, takesImage } = tool;
    const extraFileFields = 'fileFields' in tool ? tool.fileFields : undefined;
    const route = routes.tools.run[name];
    if (takesImage) {
      mountRoute(
        router,
        route,
        async ({ req, res }) => {
          const upload = await readMultipart(req, res, { fileField: 'image', extraFileFields });
          const options = await replyOptions(ctx, req, upload.fields.callback_url);
          const call = {
            fields: upload.fields,
            image: upload.file,
            fileName: upload.fileName,
            files: upload.extraFiles,
          };
          await replyToToolCall(ctx, req, res, await startTool(ctx, name, call, meta(req)), options);
        },
        { before: [...guards, affordCheapest(ctx, name), admitUpload(ctx)] },
      );
    } else {
      mountRoute(
        router,
        route,
        async ({ req, res, body }) => {
          const options = await replyOptions(ctx, req, (body as Record<string, unknown> | undefined)?.callback_url);
          await replyToToolCall(ctx, req, res, await startTool(ctx, name, { fields: body }, meta(req)), options);
        },
        { before: guards },
      );
    }
  }

  // Runs a job again from its stored input, with its own options or those in the body (a new job, charged as one).
  mountRoute(
    router,
    routes.tools.rerun,
    ({ req, params, body }) =>
      rerunJob(ctx, currentUser(req).id, params.id, meta(req), (body as Record<string, unknown> | undefined) ?? null),
    { before: guards },
  );
  mountRoute(router, routes.tools.quote, async ({ query }) => quote(await readToolSettings(ctx), query.tool, query));
  // Public: the home page and the tools' landing pages speak only of the tools live workers offer, to guests too.
  mountRoute(router, routes.tools.status, () => toolStatus(ctx));

  return router;
}
