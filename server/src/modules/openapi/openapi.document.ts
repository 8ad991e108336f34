import { z } from 'zod';
import {
  API_KEY_PREFIX,
  CSRF_HEADER_NAME,
  MAX_WAIT_SECONDS,
  WEBHOOK_SIGNATURE_HEADER,
  errorEnvelopeSchema,
  jobViewSchema,
  okEnvelope,
} from '@imagestudio/contracts';
import { SESSION_COOKIE_NAME } from '../../http/session';
import { API_OPERATIONS, type Auth, type Operation } from './api-operations';
import { REMOVEBG_OPENAPI_COMPONENTS, removeBgOpenApiPaths } from '../removebg-compat';

type Json = Record<string, unknown>;

/** Named schemas (`.meta({ id })` in the contracts) collected while the paths are built. */
const named: Json = {};

const toComponents = <T>(value: T): T =>
  JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as T;

/**
 * A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): requests as the client sends them
 * (`io: input`), replies as the server sends them. Named sub-schemas move to components.schemas.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  delete out.$schema;
  Object.assign(named, toComponents(out.$defs ?? {}));
  delete out.$defs;
  return toComponents(out);
}

const ERROR_REF = { $ref: '#/components/schemas/ErrorEnvelope' };
const errorReply = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_REF } } });

/** The failures every route of a kind can answer with (the envelope's `code` says which). */
function errorReplies(op: Operation): Json {
  const replies: Json = { 500: errorReply('Unexpected failure (code internal_error)') };
  if (op.json || op.query || op.multipart)
    replies[422] = errorReply('Invalid input: `errors` maps each field to its messages');
  if (op.auth !== 'public') {
    replies[401] = errorReply('Not signed in, or an unknown, expired or revoked API key (code unauthenticated)');
    replies[403] = errorReply(
      op.auth === 'key'
        ? 'XSRF token missing on a session call, or email not verified (codes csrf_invalid, email_not_verified)'
        : 'XSRF token missing (csrf_invalid), or the call was made with an API key (forbidden)',
    );
    replies[429] = errorReply('Too many requests (code rate_limited; see Retry-After)');
  }
  if (op.path.includes('{')) replies[404] = errorReply("Not found, or not the caller's (code not_found)");
  if (op.files) replies[413] = errorReply('The files are larger than allowed (code payload_too_large)');
  if ((op.tag === 'Tools' && op.method === 'post') || op.charges) {
    replies[402] = errorReply('Not enough tokens (code insufficient_tokens)');
    replies[503] = errorReply('The tool is not available right now (code tool_unavailable or service_unavailable)');
  }
  return replies;
}

function successReply(op: Operation): Json {
  const reply = op.reply;
  switch (reply.kind) {
    case 'json': {
      const schema =
        op.path === '/openapi.json'
          ? { type: 'object' }
          : jsonSchema(okEnvelope((reply.payload ?? z.undefined().optional()) as z.ZodType), 'output');
      return {
        [reply.status ?? 200]: { description: reply.description ?? 'OK', content: { 'application/json': { schema } } },
      };
    }
    case 'job': {
      const job = { 'application/json': { schema: jsonSchema(okEnvelope(jobViewSchema), 'output') } };
      const image = { schema: { type: 'string', contentMediaType: 'application/octet-stream' } };
      return {
        200: {
          description: `The ended job (with ?wait=), or its image with an image Accept header`,
          content: { ...job, 'image/png': image, 'image/webp': image, 'image/jpeg': image },
        },
        202: { description: reply.description, content: job },
      };
    }
    case 'redirect':
      return { 302: { description: reply.description }, 303: { description: reply.description } };
    case 'html':
      return { 200: { description: reply.description, content: { 'text/html': { schema: { type: 'string' } } } } };
    case 'csv':
      return { 200: { description: reply.description, content: { 'text/csv': { schema: { type: 'string' } } } } };
    case 'text':
      return { 200: { description: reply.description, content: { 'text/plain': { schema: { type: 'string' } } } } };
    case 'events':
      return {
        200: { description: reply.description, content: { 'text/event-stream': { schema: { type: 'string' } } } },
      };
    case 'zip':
    case 'pdf': {
      const type = `application/${reply.kind}`;
      return {
        200: {
          description: reply.description,
          content: { [type]: { schema: { type: 'string', contentMediaType: type } } },
        },
      };
    }
  }
}

function parameters(op: Operation): Json[] {
  const params: Json[] = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (op.query) {
    const schema = jsonSchema(op.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      params.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: prop });
    }
  }
  return params;
}

function requestBody(op: Operation): Json | undefined {
  if (op.json) return { required: true, content: { 'application/json': { schema: jsonSchema(op.json, 'input') } } };
  if (op.multipart) {
    const schema = jsonSchema(op.multipart, 'input') as { properties?: Json; required?: string[] };
    if (op.files) {
      return {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: { ...op.files, ...schema.properties },
              required: schema.required ?? [],
            },
          },
        },
      };
    }
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              image: {
                type: 'string',
                contentMediaType: 'application/octet-stream',
                description: 'PNG, JPEG or WebP, at most 20 MB and 25 MP',
              },
              ...schema.properties,
            },
            required: ['image', ...(schema.required ?? [])],
          },
        },
      },
    };
  }
  return undefined;
}

const SECURITY: Record<Auth, Json[]> = {
  public: [],
  session: [{ session: [], xsrf: [] }],
  key: [{ bearer: [] }, { apiKey: [] }, { session: [], xsrf: [] }],
};

/** The OpenAPI 3.1 document of the /api routes, built from API_OPERATIONS and the contracts' schemas. */
export function buildOpenApiDocument(serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of API_OPERATIONS) {
    const entry: Json = {
      operationId: `${op.method}${op.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      tags: [op.tag],
      summary: op.summary,
      security: SECURITY[op.auth],
      responses: { ...successReply(op), ...errorReplies(op) },
      ...(op.operator ? { 'x-audience': 'operator' } : {}),
    };
    const params = parameters(op);
    if (params.length > 0) entry.parameters = params;
    const body = requestBody(op);
    if (body) entry.requestBody = body;
    (paths[op.path] ??= {})[op.method] = entry;
  }
  // The remove.bg-compatible routes live outside /api: their path items name the site's root as their server.
  Object.assign(paths, removeBgOpenApiPaths(new URL('/', serverUrl).toString().replace(/\/$/, '')));
  const components: Json = {
    ...named,
    ErrorEnvelope: jsonSchema(errorEnvelopeSchema, 'output'),
    ...REMOVEBG_OPENAPI_COMPONENTS.schemas,
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Image Studio API',
      version: '1',
      description: [
        'Every reply is an envelope: `{"status":"OK","payload":...}` or `{"status":"ERROR","code":...,"message":...}`.',
        `Scripts authenticate with an API key (\`${API_KEY_PREFIX}...\`, made in Account -> API keys) as \`Authorization: Bearer <key>\` or \`X-Api-Key: <key>\`; keys may call the tools, the jobs, and read the profile and token activity.`,
        `The website uses a session cookie; its changes also send the \`${CSRF_HEADER_NAME}\` header.`,
        `Tool calls take \`?wait=<seconds>\` (at most ${MAX_WAIT_SECONDS}) and an optional \`callback_url\`: when the job ends it is POSTed there as JSON, signed in the \`${WEBHOOK_SIGNATURE_HEADER}\` header as \`t=<unix>,v1=<hex HMAC-SHA256 of "t.body" with your webhook secret>\`.`,
      ].join('\n\n'),
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: `API key (${API_KEY_PREFIX}...)` },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        ...REMOVEBG_OPENAPI_COMPONENTS.securitySchemes,
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE_NAME },
        xsrf: {
          type: 'apiKey',
          in: 'header',
          name: CSRF_HEADER_NAME,
          description: "The XSRF-TOKEN cookie's value, on POST/PUT/DELETE with a session",
        },
      },
    },
  };
}
