import { DOUBTFUL_CUTOUT_CONFIDENCE, LIMITS } from '@imagestudio/contracts';
import { FOREGROUND_TYPES, FORMATS, TYPE_LEVELS } from './removebg-fields';
import { SIZE_NAMES } from './removebg-sizes';

type Json = Record<string, unknown>;

/**
 * The /v1.0 routes in the OpenAPI document: remove.bg's API on our keys, outside /api (each path names the site's
 * root as its server), with their own security scheme (`removeBgApiKey`) and error shape (`RemoveBgErrors`).
 */

const ERRORS_REF = { $ref: '#/components/schemas/RemoveBgErrors' };
const error = (description: string) => ({ description, content: { 'application/json': { schema: ERRORS_REF } } });
const SECURITY = [{ removeBgApiKey: [] }];
const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: "The key's requests per minute", schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in this minute', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the minute ends (unix seconds)', schema: { type: 'integer' } },
};
const COMMON_ERRORS = {
  403: error('API key missing or invalid (auth_failed), or the email address not verified (email_not_verified)'),
  429: error('Rate limit exceeded (rate_limit_exceeded; see Retry-After)'),
  500: error('Unexpected failure (unknown_error)'),
};

const text = (description: string, values?: readonly string[]) => ({
  type: 'string',
  description,
  ...(values ? { examples: [...values] } : {}),
});

const FIELDS: Json = {
  image_file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'multipart only' },
  image_file_b64: text('The image as base64'),
  image_url: text('An http(s) URL the API downloads the image from (public addresses only, 20 s, 3 redirects)'),
  size: text(
    'preview (default, 0.25 MP), medium (1.5 MP), hd (4 MP), full/auto/4k, 50MP; small and regular = preview',
    SIZE_NAMES,
  ),
  type: text('Accepted; X-Type is always "other" (no classifier)', FOREGROUND_TYPES),
  type_level: text('Accepted', TYPE_LEVELS),
  format: text('auto (PNG with transparency, else JPEG), png, jpg, webp, zip (color.jpg + alpha.png)', FORMATS),
  roi: text('x1 y1 x2 y2 in px or %, e.g. "0% 0% 100% 100%"'),
  crop: { type: 'boolean', description: 'Crop to the subject' },
  crop_margin: text('1, 2 or 4 values in px or % (with crop)'),
  scale: text("10%-100% (the subject's share of the image) or original"),
  position: text('original, center, or one or two values in %'),
  channels: text('rgba, or alpha for the grey matte only', ['rgba', 'alpha']),
  bg_color: text('Hex (3, 4, 6 or 8 digits, # optional) or a colour name'),
  bg_image_url: text('A background image URL (same rules as image_url)'),
  bg_image_file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'multipart only' },
  add_shadow: { type: 'boolean' },
  semitransparency: { type: 'boolean', description: 'Accepted (our matte keeps semi-transparency anyway)' },
};

const IMAGE = { schema: { type: 'string', contentMediaType: 'application/octet-stream' } };

const removeBg: Json = {
  operationId: 'postV10Removebg',
  tags: ['remove.bg compatible'],
  summary: 'Remove the background (remove.bg-compatible, synchronous)',
  security: SECURITY,
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': { schema: { type: 'object', properties: FIELDS } },
      'application/x-www-form-urlencoded': { schema: { type: 'object', properties: FIELDS } },
      'application/json': { schema: { type: 'object', properties: FIELDS } },
    },
  },
  responses: {
    200: {
      description:
        'The image (or ZIP); with Accept: application/json `{"data":{"result_b64","foreground_top","foreground_left","foreground_width","foreground_height","cutout_confidence"}}`',
      headers: {
        ...RATE_HEADERS,
        'X-Width': { schema: { type: 'integer' } },
        'X-Height': { schema: { type: 'integer' } },
        'X-Credits-Charged': { description: 'Tokens charged, as a decimal', schema: { type: 'string' } },
        'X-Type': { schema: { type: 'string', const: 'other' } },
        'X-Foreground-Top': { schema: { type: 'integer' } },
        'X-Foreground-Left': { schema: { type: 'integer' } },
        'X-Foreground-Width': { schema: { type: 'integer' } },
        'X-Foreground-Height': { schema: { type: 'integer' } },
        'X-Cutout-Confidence': {
          description: `How far the cut-out can be trusted, 0-1 with two decimals (ours, not remove.bg's); below ${DOUBTFUL_CUTOUT_CONFIDENCE} it is worth checking`,
          schema: { type: 'string' },
        },
        'X-Max-Width': { description: 'Set when the input was reduced for `size`', schema: { type: 'integer' } },
        'X-Max-Height': { description: 'Set when the input was reduced for `size`', schema: { type: 'integer' } },
      },
      content: {
        'image/png': IMAGE,
        'image/jpeg': IMAGE,
        'image/webp': IMAGE,
        'application/zip': IMAGE,
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              data: {
                type: 'object',
                properties: {
                  result_b64: { type: 'string' },
                  foreground_top: { type: 'integer' },
                  foreground_left: { type: 'integer' },
                  foreground_width: { type: 'integer' },
                  foreground_height: { type: 'integer' },
                  cutout_confidence: { type: ['number', 'null'], minimum: 0, maximum: 1 },
                },
              },
            },
          },
        },
      },
    },
    400: error(
      `A bad field (missing_source, multiple_sources, invalid_size, invalid_format, invalid_roi, invalid_crop_margin, invalid_scale, invalid_position, invalid_channels, invalid_bg_color, multiple_bg_sources, invalid_image_url, failed_image_download, file_too_large (over ${LIMITS.uploadMaxBytes / 1048576} MB), invalid_file_type, invalid_dimensions, resolution_too_high, ...); nothing charged`,
    ),
    402: error('Not enough tokens (insufficient_credits)'),
    503: error('Not done within 60 s: cancelled and refunded (timeout; see Retry-After), or the tool is unavailable'),
    ...COMMON_ERRORS,
  },
};

const account: Json = {
  operationId: 'getV10Account',
  tags: ['remove.bg compatible'],
  summary: "The key owner's balance, in remove.bg's account shape",
  security: SECURITY,
  responses: {
    200: {
      description: '`total` and `payg` are the balance in tokens',
      headers: RATE_HEADERS,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              data: {
                type: 'object',
                properties: {
                  attributes: {
                    type: 'object',
                    properties: {
                      credits: {
                        type: 'object',
                        properties: {
                          total: { type: 'number' },
                          subscription: { type: 'number' },
                          payg: { type: 'number' },
                          enterprise: { type: 'number' },
                        },
                      },
                      api: {
                        type: 'object',
                        properties: { free_calls: { type: 'integer' }, sizes: { type: 'string' } },
                      },
                      limits: {
                        type: 'object',
                        description: "Ours, not remove.bg's: this key's calls per minute and uploads at once",
                        properties: {
                          requests_per_minute: { type: 'integer' },
                          uploads_in_flight_per_key: { type: 'integer' },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    ...COMMON_ERRORS,
  },
};

const improve: Json = {
  operationId: 'postV10Improve',
  tags: ['remove.bg compatible'],
  summary: 'Accepted for compatibility; nothing is stored (we do not train on customer images)',
  security: SECURITY,
  responses: {
    200: {
      description: 'An id, as remove.bg answers',
      content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } },
    },
    ...COMMON_ERRORS,
  },
};

/** The /v1.0 path items, each served from the site's root rather than /api. */
export function removeBgOpenApiPaths(siteUrl: string): Record<string, Json> {
  const servers = [{ url: siteUrl, description: 'The remove.bg-compatible API is served outside /api' }];
  return {
    '/v1.0/removebg': { servers, post: removeBg },
    '/v1.0/account': { servers, get: account },
    '/v1.0/improve': { servers, post: improve },
  };
}

export const REMOVEBG_OPENAPI_COMPONENTS = {
  schemas: {
    RemoveBgErrors: {
      type: 'object',
      description: "remove.bg's error shape (not the /api envelope)",
      required: ['errors'],
      properties: {
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['title', 'code'],
            properties: { title: { type: 'string' }, code: { type: 'string' }, detail: { type: 'string' } },
          },
        },
      },
    },
  },
  securitySchemes: {
    removeBgApiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Api-Key',
      description: 'One of our API keys (isk_live_...), sent the way remove.bg clients send theirs',
    },
  },
};
