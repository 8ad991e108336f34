import { Router, type Request, type RequestHandler } from 'express';
import { TOOLS, routes, type ToolRoute } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoutes, type RouteHandlers, type RouteMount } from '../../http/route-table';
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

/** One POST per tool: a JSON body, or a multipart form with the image in `image` for the tools that take one. */
function toolRun(ctx: AppContext, tool: (typeof TOOLS)[number], guards: RequestHandler[]): RouteMount<ToolRoute> {
  const { name, takesImage } = tool;
  if (!takesImage)
    return {
      handler: async ({ req, res, body }) => {
        const options = await replyOptions(ctx, req, (body as Record<string, unknown> | undefined)?.callback_url);
        await replyToToolCall(ctx, req, res, await startTool(ctx, name, { fields: body }, meta(req)), options);
      },
      before: guards,
    };
  const extraFileFields = 'fileFields' in tool ? tool.fileFields : undefined;
  return {
    handler: async ({ req, res }) => {
      const upload = await readMultipart(req, res, { fileField: 'image', extraFileFields });
      const options = await replyOptions(ctx, req, upload.fields.callback_url);
      const call = { fields: upload.fields, image: upload.file, fileName: upload.fileName, files: upload.extraFiles };
      await replyToToolCall(ctx, req, res, await startTool(ctx, name, call, meta(req)), options);
    },
    before: [...guards, affordCheapest(ctx, name), admitUpload(ctx)],
  };
}

/** The image tools: start a job (202 + the job), quote a cost, and which tools can run now. */
export function toolsRouter(ctx: AppContext) {
  const router = Router();
  const guards = [requireVerifiedEmail(ctx), submitLimit(ctx)];
  return mountRoutes(router, routes.tools, {
    run: Object.fromEntries(TOOLS.map((tool) => [tool.name, toolRun(ctx, tool, guards)])) as RouteHandlers<
      typeof routes.tools.run
    >,
    // Runs a job again from its stored input, with its own options or those in the body (a new job, charged as one).
    rerun: {
      handler: ({ req, params, body }) =>
        rerunJob(ctx, currentUser(req).id, params.id, meta(req), (body as Record<string, unknown> | undefined) ?? null),
      before: guards,
    },
    quote: async ({ query }) => quote(await readToolSettings(ctx), query.tool, query),
    // Public: the home page and the tools' landing pages speak only of the tools live workers offer, to guests too.
    status: () => toolStatus(ctx),
  });
}
