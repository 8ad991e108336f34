import { z } from 'zod';

/** Every API key starts with this, so secret scanners can recognise a leaked one. */
export const API_KEY_PREFIX = 'isk_live_';
/** Characters of the key (after isk_live_) kept in clear to tell keys apart in the list. */
export const API_KEY_SHOWN_CHARS = 4;
/** Working (not revoked, not expired) keys one account may hold. */
export const MAX_API_KEYS_PER_USER = 20;
/** Per-user secret that signs job webhooks. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Longest `?wait=` on a tool call, in seconds. */
export const MAX_WAIT_SECONDS = 60;
/** Header carrying the webhook signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Imagestudio-Signature';

export const API_KEY_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: 'Name may not be greater than 100 characters.',
  expiryInPast: 'The expiry date must be in the future.',
  invalidKey: 'Invalid, expired or revoked API key.',
  keyInUrl:
    'Send the API key in the Authorization header (Bearer) or in X-Api-Key, never in the URL: URLs end up in logs.',
  notAllowed: 'API keys cannot be used for this request. Sign in to the website instead.',
  created: 'API key created. Copy it now: it will not be shown again.',
  revoked: 'API key revoked.',
  tooMany: `An account can have at most ${MAX_API_KEYS_PER_USER} API keys. Revoke one you no longer use first.`,
} as const;

export const apiKeyCreateSchema = z.object({
  name: z
    .string({ error: API_KEY_MESSAGES.nameRequired })
    .trim()
    .min(1, API_KEY_MESSAGES.nameRequired)
    .max(100, API_KEY_MESSAGES.nameTooLong),
  expires_at: z.preprocess(
    (v) => (v === '' ? null : v),
    z.iso
      .datetime({ offset: true })
      .refine((v) => Date.parse(v) > Date.now(), API_KEY_MESSAGES.expiryInPast)
      .nullable()
      .optional(),
  ),
});
export type ApiKeyCreateInput = z.infer<typeof apiKeyCreateSchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('isk_live_ and the first characters of the key'),
  last4: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeySchema>;

/** The reply to POST /api/user/api-keys: the only time `key` is ever returned. */
export const createdApiKeySchema = apiKeySchema.omit({ last_used_at: true }).extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const webhookSecretSchema = z.object({ secret: z.string() });
export type WebhookSecretView = z.infer<typeof webhookSecretSchema>;

const WAIT_MESSAGE = `wait must be a whole number of seconds from 0 to ${MAX_WAIT_SECONDS}.`;

/**
 * Query of the tool calls: `wait` seconds (0-60) for the job to end before answering, written as a decimal
 * integer (`1e1`, `0x10`, `1.0` and ` 5` are 422: Number() would have read them).
 */
export const toolCallQuerySchema = z.object({
  wait: z
    .string({ error: WAIT_MESSAGE })
    .regex(/^[0-9]{1,3}$/, WAIT_MESSAGE)
    .pipe(z.coerce.number<string>().int().min(0, WAIT_MESSAGE).max(MAX_WAIT_SECONDS, WAIT_MESSAGE))
    .default(0),
});
