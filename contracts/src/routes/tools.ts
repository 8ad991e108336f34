import { z } from 'zod';
import { toolCallQuerySchema } from '../api-keys';
import { jobViewSchema } from '../api-schemas';
import { quoteQuerySchema } from '../job-requests';
import { toolQuoteSchema, toolStatusSchema } from '../catalog-schemas';
import { TOOLS, type JobName } from '../tools';
import { TOOL_SCHEMAS } from '../tools/tool-schemas';
import { toolAddress } from './addresses';
import { defineRoute, defineRoutes, type Route, type RouteSpec } from './route';

/** POST /tools/<name>, whichever the tool. */
export type ToolRoute = Route<
  RouteSpec & { method: 'post'; auth: 'key'; validatedBy: 'handler'; reply: { kind: 'job'; description: string } }
>;

/** Extra field of the tool calls: where to POST the job when it ends. */
const callback = z.object({
  callback_url: z.string().optional().describe('https URL that receives the ended job as a signed POST'),
});

const JOB_REPLY =
  '202 with the accepted job. With ?wait=N (1-60) the call waits for the job to end: 200 with the ended job, or 202 when it has not. With wait and `Accept: image/png` (or image/webp, image/jpeg) a job with one result answers with the image bytes.';

/**
 * POST /tools/<name>: a JSON body, or a multipart form with the image in `image` for the tools that take one.
 * The fields are checked by the tool's definition on the server (its messages, with the webhook URL and
 * `wait` first), so the handler gets them unparsed.
 */
function toolRoute(tool: (typeof TOOLS)[number]): ToolRoute {
  const fields = TOOL_SCHEMAS[tool.name].request.extend(callback.shape);
  const address = toolAddress(tool.name);
  const common = {
    tag: 'Tools',
    summary: tool.summary,
    auth: 'key',
    query: toolCallQuerySchema,
    validatedBy: 'handler',
    extraErrors: [402, 503],
    reply: { kind: 'job', description: JOB_REPLY },
  } as const;
  if (!tool.takesImage) return defineRoute(address, { ...common, body: fields });
  const image = {
    type: 'string',
    contentMediaType: 'application/octet-stream',
    description: 'PNG, JPEG or WebP, at most 20 MB and 25 MP',
  } as const;
  // Further file parts a tool takes (background removal's `background_image`), checked like the image.
  const extra = Object.fromEntries(
    ('fileFields' in tool ? tool.fileFields : []).map((field) => [
      field,
      {
        type: 'string',
        contentMediaType: 'application/octet-stream',
        description: `${field}: an image, checked like image`,
      } as const,
    ]),
  );
  return defineRoute(address, { ...common, form: { fields, files: { image, ...extra }, requiredFiles: ['image'] } });
}

/** The image tools: one call per tool, the cost of a call, and which tools can run now. */
export const toolRoutes = {
  run: Object.fromEntries(TOOLS.map((tool) => [tool.name, toolRoute(tool)])) as Record<JobName, ToolRoute>,
  ...defineRoutes('tools', {
    quote: {
      tag: 'Tools',
      summary: 'Cost of a tool call in tokens',
      auth: 'session',
      query: quoteQuerySchema,
      reply: { kind: 'json', payload: toolQuoteSchema },
    },
    // Under /jobs but a tool call in all but its input: the same guards, charge and reply as the tool's own route.
    rerun: {
      tag: 'Jobs',
      summary:
        "Run a job again from a copy of its stored input, with its own options or the tool's option fields in a JSON body, as a new job charged at today's price (409 once its files are gone)",
      auth: 'key',
      body: z.record(z.string(), z.unknown()),
      validatedBy: 'handler',
      extraErrors: [402, 409, 503],
      reply: { kind: 'json', status: 202, payload: jobViewSchema },
    },
    status: {
      tag: 'Tools',
      summary: 'Which tools can run now',
      auth: 'public',
      reply: { kind: 'json', payload: toolStatusSchema },
    },
  }),
};
