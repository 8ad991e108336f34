import { z } from 'zod';
import {
  API_KEY_PREFIX,
  CSRF_HEADER_NAME,
  MAX_WAIT_SECONDS,
  WEBHOOK_SIGNATURE_HEADER,
  errorEnvelopeSchema,
  jobViewSchema,
  okEnvelope,
  REMOVEBG_BASE,
  REMOVEBG_ROUTES,
  removeBgErrorsSchema,
  ROUTES,
  type ReplyHeader,
  type Route,
  type RouteAuth,
} from '@imagestudio/contracts';
import { SESSION_COOKIE_NAME } from '../../http/session';

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

const errorReply = (description: string, schema = 'ErrorEnvelope') => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});

/** The failures every remove.bg-compatible route answers, in remove.bg's codes. */
const REMOVEBG_ERRORS: Partial<Record<number, string>> = {
  403: 'API key missing or invalid (auth_failed), or the email address not verified (email_not_verified)',
  429: 'Rate limit exceeded (rate_limit_exceeded; see Retry-After)',
  500: 'Unexpected failure (unknown_error)',
};

/** What each error status of a route means (the envelope's `code` says which case it is). */
function errorDescription(route: Route, status: number): string {
  switch (status) {
    case 401:
      return 'Not signed in, or an unknown, expired or revoked API key (code unauthenticated)';
    case 402:
      return 'Not enough tokens (code insufficient_tokens)';
    case 403:
      return route.auth === 'key'
        ? 'XSRF token missing on a session call, or email not verified (codes csrf_invalid, email_not_verified)'
        : 'XSRF token missing (csrf_invalid), or the call was made with an API key (forbidden)';
    case 404:
      return "Not found, or not the caller's (code not_found)";
    case 413:
      return 'The files are larger than allowed (code payload_too_large)';
    case 422:
      return 'Invalid input: `errors` maps each field to its messages';
    case 429:
      return 'Too many requests (code rate_limited; see Retry-After)';
    case 503:
      return 'The tool is not available right now (code tool_unavailable or service_unavailable)';
    default:
      return 'Unexpected failure (code internal_error)';
  }
}

function errorReplies(route: Route): Json {
  const removeBg = route.compat === 'removebg';
  const describe = (status: number) =>
    route.errorNotes?.[status] ?? (removeBg ? REMOVEBG_ERRORS[status] : undefined) ?? errorDescription(route, status);
  const schema = removeBg ? 'RemoveBgErrors' : 'ErrorEnvelope';
  return Object.fromEntries(route.errors.map((status) => [status, errorReply(describe(status), schema)]));
}

const replyHeaders = (headers: Record<string, ReplyHeader>) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, { type, description }]) => [
      name,
      { ...(description ? { description } : {}), schema: { type } },
    ]),
  );

/** remove.bg's JSON document, or its image in the format asked for with the JSON form for Accept: application/json. */
function removeBgReply(reply: Extract<Route['reply'], { kind: 'removebg' }>): Json {
  const json = { 'application/json': { schema: jsonSchema(reply.payload, 'output') } };
  const file = { schema: { type: 'string', contentMediaType: 'application/octet-stream' } };
  const images = reply.image
    ? { 'image/png': file, 'image/jpeg': file, 'image/webp': file, 'application/zip': file }
    : {};
  const headers = reply.headers ? { headers: replyHeaders(reply.headers) } : {};
  return { 200: { description: reply.description, ...headers, content: { ...images, ...json } } };
}

const textReply = (description: string, type: string, schema: Json = { type: 'string' }) => ({
  200: { description, content: { [type]: { schema } } },
});

function successReply(route: Route): Json {
  const reply = route.reply;
  switch (reply.kind) {
    case 'json': {
      const schema = jsonSchema(okEnvelope((reply.payload ?? z.undefined().optional()) as z.ZodType), 'output');
      return {
        [reply.status ?? 200]: { description: reply.description ?? 'OK', content: { 'application/json': { schema } } },
      };
    }
    case 'document':
      return textReply(reply.description, 'application/json', { type: 'object' });
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
      return textReply(reply.description, 'text/html');
    case 'csv':
      return textReply(reply.description, 'text/csv');
    case 'text':
      return textReply(reply.description, 'text/plain');
    case 'events':
      return textReply(reply.description, 'text/event-stream');
    case 'zip':
      return textReply(reply.description, 'application/zip', { type: 'string', contentMediaType: 'application/zip' });
    case 'pdf':
      return textReply(reply.description, 'application/pdf', { type: 'string', contentMediaType: 'application/pdf' });
    case 'webp':
      return textReply(reply.description, 'image/webp', { type: 'string', contentMediaType: 'image/webp' });
    case 'removebg':
      return removeBgReply(reply);
  }
}

function parameters(route: Route): Json[] {
  const params: Json[] = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (route.query) {
    const schema = jsonSchema(route.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      params.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: prop });
    }
  }
  return params;
}

function requestBody(route: Route): Json | undefined {
  if (route.body)
    return { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } };
  if (!route.form) return undefined;
  const schema = jsonSchema(route.form.fields, 'input') as { properties?: Json; required?: string[] };
  const required = schema.required ?? [];
  // The same text fields as a urlencoded or JSON body, where the route takes one (files then come as base64).
  const encoded = Object.fromEntries(
    (route.form.alsoAs ?? []).map((type) => [
      type,
      { schema: { type: 'object', properties: schema.properties, required } },
    ]),
  );
  // A file part the server marks among the fields (a tool's `fileFields`) is documented as the file it is, with
  // the field's own description where it has one.
  const fields = (schema.properties ?? {}) as Record<string, { description?: string }>;
  const properties: Record<string, unknown> = { ...route.form.files, ...fields };
  for (const [name, file] of Object.entries(route.form.files)) {
    const described = fields[name]?.description;
    properties[name] = described ? { ...file, description: described } : file;
  }
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties,
          required: [...new Set([...(route.form.requiredFiles ?? []), ...required])],
        },
      },
      ...encoded,
    },
  };
}

const SESSION = [{ session: [], xsrf: [] }];
const REMOVEBG_SECURITY = [{ removeBgApiKey: [] }];
const SECURITY: Record<RouteAuth, Json[]> = {
  public: [],
  session: SESSION,
  key: [{ bearer: [] }, { apiKey: [] }, ...SESSION],
  admin: SESSION,
};

/** The routes the document describes: all but the operator console's, which is not advertised. */
export const DOCUMENTED_ROUTES = ROUTES.filter((route) => route.auth !== 'admin');

/** The OpenAPI 3.1 document of the /api routes, built from the route table (contracts/src/routes). */
export function buildOpenApiDocument(serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  // The remove.bg-compatible routes live outside /api: their path items name the site's root as their server.
  const siteRoot = [
    {
      url: new URL('/', serverUrl).toString().replace(/\/$/, ''),
      description: 'The remove.bg-compatible API is served outside /api',
    },
  ];
  for (const route of [...DOCUMENTED_ROUTES, ...REMOVEBG_ROUTES]) {
    const removeBg = route.compat === 'removebg';
    const path = removeBg ? `${REMOVEBG_BASE}${route.path}` : route.path;
    const entry: Json = {
      operationId: `${route.method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      tags: [route.tag],
      summary: route.summary,
      security: removeBg ? REMOVEBG_SECURITY : SECURITY[route.auth],
      responses: { ...successReply(route), ...errorReplies(route) },
      ...(route.operator ? { 'x-audience': 'operator' } : {}),
    };
    const params = parameters(route);
    if (params.length > 0) entry.parameters = params;
    const body = requestBody(route);
    if (body) entry.requestBody = body;
    (paths[path] ??= removeBg ? { servers: siteRoot } : {})[route.method] = entry;
  }
  const components: Json = {
    ...named,
    ErrorEnvelope: jsonSchema(errorEnvelopeSchema, 'output'),
    RemoveBgErrors: jsonSchema(removeBgErrorsSchema, 'output'),
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
        removeBgApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Api-Key',
          description: `One of our API keys (${API_KEY_PREFIX}...), sent the way remove.bg clients send theirs`,
        },
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
