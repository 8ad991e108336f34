import { z } from 'zod';
import {
  BATCH_LIMITS,
  BATCH_TOOLS,
  TOOLS,
  TOOL_SCHEMAS,
  UPSCALE_MODELS,
  anyPayloadSchema,
  batchAcceptedSchema,
  batchItemViewSchema,
  batchListQuerySchema,
  batchPageSchema,
  batchViewSchema,
  apiKeyCreateSchema,
  apiKeySchema,
  changePasswordSchema,
  checkoutBillingSchema,
  compositionViewSchema,
  createdApiKeySchema,
  jobListQuerySchema,
  jobPageSchema,
  jobViewSchema,
  ledgerPageSchema,
  ledgerQuerySchema,
  loginSchema,
  profileUpdateSchema,
  productPhotoFieldsSchema,
  profileViewSchema,
  quoteQuerySchema,
  registerSchema,
  resetRequestSchema,
  restorePasswordSchema,
  toolCallQuerySchema,
  webhookSecretSchema,
} from '@imagestudio/contracts';

/**
 * Every /api route, described once for GET /api/openapi.json. The schemas are the contracts' own zod
 * schemas; a test checks that each mounted route has an entry here and the reverse.
 *
 * auth: `public` (no sign-in), `session` (browser session cookie; changes also need X-XSRF-TOKEN), or
 * `key` (a session, or an API key as `Authorization: Bearer` or `X-Api-Key`).
 */
export type Auth = 'public' | 'session' | 'key';

/** What the route answers on success. */
export type Reply =
  | { kind: 'json'; status?: number; payload?: z.ZodType; description?: string }
  | { kind: 'job'; description: string }
  | { kind: 'redirect'; description: string }
  | { kind: 'html' | 'csv' | 'text' | 'events' | 'zip' | 'pdf'; description: string };

export interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Path below /api in OpenAPI form (`/jobs/{id}`). */
  path: string;
  tag: string;
  summary: string;
  auth: Auth;
  query?: z.ZodObject;
  json?: z.ZodType;
  /** multipart/form-data: the fields besides the `image` file. */
  multipart?: z.ZodObject;
  /** multipart/form-data file fields other than one `image` (JSON Schema properties; none required). */
  files?: Record<string, unknown>;
  /** A call that charges tokens: documents 402 and 503. */
  charges?: boolean;
  /**
   * Called by the operator's infrastructure or the payment provider, never by a customer's script (probes,
   * metrics, Stripe's webhook and return, the test checkout): in the document as `x-audience: operator`, and
   * left out of the public /developers reference.
   */
  operator?: true;
  reply: Reply;
}

const tool = (path: string, summary: string, body: { json?: z.ZodType; multipart?: z.ZodObject }): Operation => ({
  method: 'post',
  path,
  tag: 'Tools',
  summary,
  auth: 'key',
  query: toolCallQuerySchema,
  ...body,
  reply: {
    kind: 'job',
    description:
      '202 with the accepted job. With ?wait=N (1-60) the call waits for the job to end: 200 with the ended job, or 202 when it has not. With wait and `Accept: image/png` (or image/webp, image/jpeg) a job with one result answers with the image bytes.',
  },
});

/** Extra field of the tool calls: where to POST the job when it ends. */
const callback = z.object({
  callback_url: z.string().optional().describe('https URL that receives the ended job as a signed POST'),
});

/** The text fields of POST /batches: the tool and that tool's options (as on the single tool calls). */
const batchForm = z.object({
  tool: z.enum(BATCH_TOOLS),
  output_format: z
    .enum(['png', 'webp', 'avif', 'jpeg', 'auto'])
    .optional()
    .describe('remove-background: png (default), webp, avif, jpeg or auto; upscale: png, webp or jpeg'),
  ...productPhotoFieldsSchema.omit({ output_format: true, background_image: true }).shape,
  // A file part, listed after the text fields (the form's files, images and archive, come first).
  background_image: z
    .string()
    .optional()
    .meta({ contentMediaType: 'application/octet-stream' })
    .describe('remove-background: one background image for every item (PNG, JPEG or WebP, checked like the images)'),
  factor: z.number().int().optional().describe('upscale (required there): 2 or 4'),
  model: z.enum(UPSCALE_MODELS).optional().describe('upscale: the model (default photo)'),
});
const batchFiles = {
  images: {
    type: 'array',
    maxItems: BATCH_LIMITS.maxItems,
    items: { type: 'string', contentMediaType: 'application/octet-stream' },
    description: `1-${BATCH_LIMITS.maxItems} images (PNG, JPEG or WebP, each at most 20 MB and 25 MP; ${BATCH_LIMITS.maxTotalBytes / 1024 / 1024} MB in all). Send this or archive.`,
  },
  archive: {
    type: 'string',
    contentMediaType: 'application/zip',
    description: `Or one ZIP with up to ${BATCH_LIMITS.maxItems} images. Refused: paths leading outside it, archives inside it, more than ${BATCH_LIMITS.archiveMaxUncompressedBytes / 1024 / 1024} MB expanded, entries expanding over ${BATCH_LIMITS.archiveMaxRatio}x.`,
  },
};

/** The optional file parts of forms besides `image`, by field, as form properties. */
const FILE_DESCRIPTIONS: Record<string, [mediaType: string, description: string]> = {
  background_image: [
    'application/octet-stream',
    'A background image (PNG, JPEG or WebP, checked like the image), cover-fitted to the canvas',
  ],
  matte: ['image/png', 'An edited matte: a greyscale PNG the size of compose_sources (white keeps, black removes)'],
};
const fileField = (field: string) => {
  const [contentMediaType, description] = FILE_DESCRIPTIONS[field] ?? ['application/octet-stream', 'A file'];
  return z.string().optional().meta({ contentMediaType }).describe(description);
};

const message = { kind: 'json' } as const;
const page = z.object({ page: z.coerce.number().int().optional() });
const currency = z.object({ currency: z.string().optional() });
const lang = z.object({ lang_id: z.string().optional() });

export const API_OPERATIONS: Operation[] = [
  // Probes and metrics
  {
    method: 'get',
    path: '/health',
    operator: true,
    tag: 'Service',
    summary: 'Liveness',
    auth: 'public',
    reply: { kind: 'json', payload: z.object({ uptime_s: z.number() }) },
  },
  {
    method: 'get',
    path: '/ready',
    operator: true,
    tag: 'Service',
    summary: 'Readiness of Postgres, Redis, the queue and S3 (503 naming what is down)',
    auth: 'public',
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/metrics',
    operator: true,
    tag: 'Service',
    summary: 'Prometheus metrics (Authorization: Bearer <METRICS_TOKEN>; not served without one)',
    auth: 'public',
    reply: { kind: 'text', description: 'Prometheus text format' },
  },
  {
    method: 'get',
    path: '/openapi.json',
    tag: 'Service',
    summary: 'This document',
    auth: 'public',
    reply: { kind: 'json', description: 'OpenAPI 3.1 document (not wrapped in the envelope)' },
  },

  // Catalog
  {
    method: 'get',
    path: '/settings',
    tag: 'Catalog',
    summary: 'Public settings',
    auth: 'public',
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/languages',
    tag: 'Catalog',
    summary: 'Languages',
    auth: 'public',
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/currencies',
    tag: 'Catalog',
    summary: 'Currencies',
    auth: 'public',
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/localizations',
    tag: 'Catalog',
    summary: 'UI strings of a language',
    auth: 'public',
    query: lang,
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/countries',
    tag: 'Catalog',
    summary: 'Countries in a language',
    auth: 'public',
    query: lang,
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/static-pages',
    tag: 'Catalog',
    summary: 'Static pages',
    auth: 'public',
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/static-pages/slug/{slug}',
    tag: 'Catalog',
    summary: 'A static page by slug',
    auth: 'public',
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/static-pages/{id}',
    tag: 'Catalog',
    summary: 'A static page by id',
    auth: 'public',
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/social-links',
    tag: 'Catalog',
    summary: 'Social links',
    auth: 'public',
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/packs',
    tag: 'Catalog',
    summary: 'Token packs in a currency',
    auth: 'public',
    query: currency,
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/token-pricing',
    tag: 'Catalog',
    summary: 'Price tiers in a currency',
    auth: 'public',
    query: currency,
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/token-pricing/quote',
    tag: 'Catalog',
    summary: 'Price of a number of tokens',
    auth: 'public',
    reply: { kind: 'json', payload: anyPayloadSchema },
  },

  // Accounts (browser)
  {
    method: 'get',
    path: '/is-auth',
    tag: 'Account',
    summary: 'Whether a session is signed in; sets the XSRF-TOKEN cookie',
    auth: 'public',
    reply: message,
  },
  {
    method: 'post',
    path: '/register',
    tag: 'Account',
    summary: 'Create an account',
    auth: 'public',
    json: registerSchema,
    reply: { kind: 'json', status: 201 },
  },
  {
    method: 'post',
    path: '/login',
    tag: 'Account',
    summary: 'Sign in (session cookie)',
    auth: 'public',
    json: loginSchema,
    reply: message,
  },
  { method: 'post', path: '/logout', tag: 'Account', summary: 'Sign out', auth: 'session', reply: message },
  {
    method: 'get',
    path: '/user/profile',
    tag: 'Account',
    summary: "The caller's profile and balance",
    auth: 'key',
    reply: { kind: 'json', payload: profileViewSchema },
  },
  {
    method: 'put',
    path: '/user/profile',
    tag: 'Account',
    summary: 'Change the profile',
    auth: 'session',
    json: profileUpdateSchema,
    reply: { kind: 'json', payload: profileViewSchema },
  },
  {
    method: 'post',
    path: '/user/change-password',
    tag: 'Account',
    summary: 'Change the password',
    auth: 'session',
    json: changePasswordSchema,
    reply: message,
  },
  {
    method: 'get',
    path: '/user/request-password-restore',
    tag: 'Account',
    summary: 'Send a password-reset link',
    auth: 'public',
    query: resetRequestSchema,
    reply: message,
  },
  {
    method: 'post',
    path: '/user/request-password-restore',
    tag: 'Account',
    summary: 'Send a password-reset link',
    auth: 'public',
    json: resetRequestSchema,
    reply: message,
  },
  {
    method: 'put',
    path: '/user/restore-password',
    tag: 'Account',
    summary: "Set a new password with a reset link's token",
    auth: 'public',
    json: restorePasswordSchema,
    reply: message,
  },
  {
    method: 'get',
    path: '/email/verify/{id}/{hash}',
    tag: 'Account',
    summary: 'Follow an email-verification link',
    auth: 'public',
    reply: { kind: 'redirect', description: '302 to the result page' },
  },
  {
    method: 'post',
    path: '/email/verification-notification',
    tag: 'Account',
    summary: 'Send the verification email again',
    auth: 'session',
    reply: message,
  },

  // Developer API management
  {
    method: 'get',
    path: '/user/api-keys',
    tag: 'API keys',
    summary: "The caller's active API keys",
    auth: 'session',
    reply: { kind: 'json', payload: z.array(apiKeySchema) },
  },
  {
    method: 'post',
    path: '/user/api-keys',
    tag: 'API keys',
    summary: 'Create an API key (the key is returned only here)',
    auth: 'session',
    json: apiKeyCreateSchema,
    reply: { kind: 'json', status: 201, payload: createdApiKeySchema },
  },
  {
    method: 'delete',
    path: '/user/api-keys/{id}',
    tag: 'API keys',
    summary: 'Revoke an API key',
    auth: 'session',
    reply: message,
  },
  {
    method: 'get',
    path: '/user/webhook-secret',
    tag: 'API keys',
    summary: 'The secret that signs job webhooks',
    auth: 'session',
    reply: { kind: 'json', payload: webhookSecretSchema },
  },
  {
    method: 'post',
    path: '/user/webhook-secret/rotate',
    tag: 'API keys',
    summary: 'Replaces the webhook secret; webhooks sent from now on are signed with the new one',
    auth: 'session',
    reply: { kind: 'json', payload: webhookSecretSchema },
  },

  // Tokens
  {
    method: 'get',
    path: '/user/ledger',
    tag: 'Tokens',
    summary: 'Token activity, newest first, 20 a page',
    auth: 'key',
    query: ledgerQuerySchema,
    reply: { kind: 'json', payload: ledgerPageSchema },
  },
  {
    method: 'get',
    path: '/user/ledger.csv',
    tag: 'Tokens',
    summary: 'All token activity as CSV',
    auth: 'key',
    reply: { kind: 'csv', description: 'id,created_at,kind,amount,balance_after,description,job_id,deposit_id' },
  },

  // Payments (browser)
  {
    method: 'post',
    path: '/deposit/checkout',
    tag: 'Payments',
    summary: 'Start a card payment',
    auth: 'session',
    json: checkoutBillingSchema,
    reply: {
      kind: 'json',
      payload: z.object({ deposit_id: z.string() }),
      description: 'redirect_url names the payment page',
    },
  },
  {
    method: 'get',
    path: '/deposit/status/{depositId}',
    tag: 'Payments',
    summary: 'State of a payment',
    auth: 'session',
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/deposit/redirect',
    tag: 'Payments',
    summary: 'Continue to the payment page',
    auth: 'session',
    reply: { kind: 'redirect', description: '303 to the payment page' },
  },
  {
    method: 'get',
    path: '/deposit/stripe-return',
    operator: true,
    tag: 'Payments',
    summary: 'Return from the payment page',
    auth: 'public',
    reply: { kind: 'redirect', description: '303 to the result page' },
  },
  {
    method: 'get',
    path: '/deposit/test-checkout',
    operator: true,
    tag: 'Payments',
    summary: 'Built-in test payment page (no Stripe keys)',
    auth: 'public',
    reply: { kind: 'html', description: 'HTML page' },
  },
  {
    method: 'post',
    path: '/deposit/test-checkout',
    operator: true,
    tag: 'Payments',
    summary: 'Complete a test payment',
    auth: 'public',
    reply: { kind: 'redirect', description: '303 to the result page' },
  },
  {
    method: 'post',
    path: '/webhooks/stripe',
    operator: true,
    tag: 'Payments',
    summary: 'Stripe webhook (signed by Stripe)',
    auth: 'public',
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/user/payment-history',
    tag: 'Payments',
    summary: 'Payments, newest first',
    auth: 'session',
    query: page,
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/user/payment-history/{depositId}/receipt',
    tag: 'Payments',
    summary: 'Receipt of a payment, translated and formatted (a browser is redirected to the receipt page)',
    auth: 'session',
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/user/payment-history/{depositId}/invoice.pdf',
    tag: 'Payments',
    summary: 'PDF invoice of a payment',
    auth: 'session',
    reply: { kind: 'pdf', description: 'PDF invoice' },
  },

  // Tools
  ...TOOLS.map((contract) => {
    const { name, summary, takesImage } = contract;
    const fields: z.ZodObject = TOOL_SCHEMAS[name].request.extend(callback.shape);
    const fileFields: readonly string[] = 'fileFields' in contract ? contract.fileFields : [];
    // The further file parts are files of the form (optional), not the text fields `parse` sees.
    const files = Object.fromEntries(fileFields.map((f) => [f, fileField(f)]));
    return tool(`/tools/${name}`, summary, takesImage ? { multipart: fields.extend(files) } : { json: fields });
  }),
  {
    method: 'get',
    path: '/tools/quote',
    tag: 'Tools',
    summary: 'Cost of a tool call in tokens',
    auth: 'session',
    query: quoteQuerySchema,
    reply: { kind: 'json', payload: anyPayloadSchema },
  },
  {
    method: 'get',
    path: '/tools/status',
    tag: 'Tools',
    summary: 'Which tools can run now',
    auth: 'session',
    reply: { kind: 'json', payload: anyPayloadSchema },
  },

  // Jobs
  {
    method: 'get',
    path: '/jobs',
    tag: 'Jobs',
    summary: "The caller's jobs, newest first",
    auth: 'key',
    query: jobListQuerySchema,
    reply: { kind: 'json', payload: jobPageSchema },
  },
  {
    method: 'get',
    path: '/jobs/{id}',
    tag: 'Jobs',
    summary: 'One job',
    auth: 'key',
    reply: { kind: 'json', payload: jobViewSchema },
  },
  {
    method: 'get',
    path: '/jobs/{id}/events',
    tag: 'Jobs',
    summary: 'Live job updates (Server-Sent Events: `job`, then `end`)',
    auth: 'key',
    reply: { kind: 'events', description: 'text/event-stream' },
  },
  {
    method: 'post',
    path: '/jobs/{id}/cancel',
    tag: 'Jobs',
    summary: 'Cancel an open job (refunded)',
    auth: 'key',
    reply: { kind: 'json', payload: jobViewSchema },
  },
  {
    method: 'post',
    path: '/jobs/{id}/rerun',
    tag: 'Jobs',
    summary:
      "Run a job again from a copy of its stored input, with its own options or the tool's option fields in a JSON body, as a new job charged at today's price (409 once its files are gone)",
    auth: 'key',
    reply: { kind: 'json', status: 202, payload: jobViewSchema },
  },
  {
    method: 'post',
    path: '/jobs/{id}/compose',
    tag: 'Jobs',
    summary:
      'Re-compose a succeeded remove-background job from its stored cut-out with other layout, background, shadow or format options (free)',
    auth: 'key',
    multipart: productPhotoFieldsSchema.extend({
      background_image: fileField('background_image'),
      matte: fileField('matte'),
    }),
    files: {},
    reply: {
      kind: 'json',
      status: 201,
      payload: compositionViewSchema,
      description:
        "The new picture (also listed in the job view's compositions). 404 for another user's job or one that is not a succeeded remove-background job; 429 past the per-minute limit",
    },
  },
  {
    method: 'delete',
    path: '/jobs/{id}',
    tag: 'Jobs',
    summary: "Delete a job's files (the history row stays)",
    auth: 'key',
    reply: { kind: 'json', payload: jobViewSchema },
  },

  // Batches
  {
    method: 'post',
    path: '/batches',
    tag: 'Batches',
    summary:
      'Run one tool over many images (each item an ordinary job with its own charge; Idempotency-Key as for tools)',
    auth: 'key',
    multipart: batchForm,
    files: batchFiles,
    charges: true,
    reply: {
      kind: 'json',
      status: 202,
      payload: batchAcceptedSchema,
      description:
        'Accepted: every item charged and queued. A 422 names each bad file in `errors`; 402 when the balance does not cover the whole batch (nothing charged)',
    },
  },
  {
    method: 'get',
    path: '/batches',
    tag: 'Batches',
    summary: "The caller's batches, newest first",
    auth: 'key',
    query: batchListQuerySchema,
    reply: { kind: 'json', payload: batchPageSchema },
  },
  {
    method: 'get',
    path: '/batches/{id}',
    tag: 'Batches',
    summary: 'One batch: counts per status, items with progress and results',
    auth: 'key',
    reply: { kind: 'json', payload: batchViewSchema },
  },
  {
    method: 'get',
    path: '/batches/{id}/events',
    tag: 'Batches',
    summary: 'Live batch updates (Server-Sent Events: `batch` with the batch, then `end`)',
    auth: 'key',
    reply: { kind: 'events', description: 'text/event-stream' },
  },
  {
    method: 'post',
    path: '/batches/{id}/cancel',
    tag: 'Batches',
    summary: 'Cancel every item not yet ended (each refunded)',
    auth: 'key',
    reply: { kind: 'json', payload: batchViewSchema },
  },
  {
    method: 'get',
    path: '/batches/{id}/zip',
    tag: 'Batches',
    summary: 'The finished results as one ZIP (streamed), with failed.csv when an item has no result',
    auth: 'key',
    reply: {
      kind: 'zip',
      description:
        'application/zip: results named after the inputs, plus failed.csv (file_name, job_id, status, reason) when an item has no result',
    },
  },
  {
    method: 'post',
    path: '/batches/{id}/items/{itemId}/retry',
    tag: 'Batches',
    summary: 'Run a failed or cancelled item again (a new charge)',
    auth: 'key',
    charges: true,
    reply: { kind: 'json', status: 202, payload: batchItemViewSchema },
  },
  {
    method: 'get',
    path: '/user/request-history',
    tag: 'Jobs',
    summary: 'Request history (same as GET /jobs)',
    auth: 'session',
    query: jobListQuerySchema,
    reply: { kind: 'json', payload: jobPageSchema },
  },
  {
    method: 'get',
    path: '/user/projects',
    tag: 'Jobs',
    summary: 'Succeeded jobs whose files still exist',
    auth: 'session',
    query: page,
    reply: { kind: 'json', payload: jobPageSchema },
  },
];
