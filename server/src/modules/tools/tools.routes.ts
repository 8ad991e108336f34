import { Router, type Request } from 'express';
import { TOOLS, quoteQuerySchema } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { currentUser, requireUser, requireVerifiedEmail } from '../auth/auth-guards';
import { sendOk } from '../../http/envelope';
import { readMultipart } from '../uploads/multipart';
import { admitUpload } from '../uploads/upload-budget';
import { submitLimit } from './submit-limit';
import { quote } from './tool-quote';
import { readToolSettings } from './tools.settings';
import { startTool, type SubmitMeta } from './tools.service';
import { replyOptions, replyToToolCall } from './tool-reply';
import { toolStatus } from './tools.status';

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
  const uploadGuards = [...guards, admitUpload(ctx)];

  // One POST per tool: a JSON body, or a multipart form with the image in `image` for the tools that take one.
  for (const tool of TOOLS) {
    const { name, takesImage } = tool;
    const extraFileFields = 'fileFields' in tool ? tool.fileFields : undefined;
    if (takesImage) {
      router.post(`/tools/${name}`, ...uploadGuards, async (req, res) => {
        const upload = await readMultipart(req, res, { fileField: 'image', extraFileFields });
        const options = await replyOptions(ctx, req, upload.fields.callback_url);
        const call = { fields: upload.fields, image: upload.file, fileName: upload.fileName, files: upload.extraFiles };
        await replyToToolCall(ctx, req, res, await startTool(ctx, name, call, meta(req)), options);
      });
    } else {
      router.post(`/tools/${name}`, ...guards, async (req, res) => {
        const options = await replyOptions(ctx, req, (req.body as Record<string, unknown> | undefined)?.callback_url);
        await replyToToolCall(ctx, req, res, await startTool(ctx, name, { fields: req.body }, meta(req)), options);
      });
    }
  }

  router.get('/tools/quote', requireUser, async (req, res) => {
    const q = quoteQuerySchema.parse(req.query);
    sendOk(res, quote(await readToolSettings(ctx), q.tool, q));
  });

  router.get('/tools/status', requireUser, async (_req, res) => {
    sendOk(res, await toolStatus(ctx));
  });

  return router;
}
