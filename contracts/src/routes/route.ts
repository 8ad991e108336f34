import { z } from 'zod';
import type { JobView } from '../jobs';

/**
 * Who may call a route:
 * - `public`: anyone; no sign-in is checked (an API key is still refused unless the route is served before
 *   authentication, as the catalog and the probes are).
 * - `session`: a signed-in browser session (changes also send X-XSRF-TOKEN); an API key gets 403.
 * - `key`: a session, or an API key as `Authorization: Bearer` or `X-Api-Key`.
 * - `admin`: an operator's browser session (guests 401, other users the 404 of an unknown path, keys 403).
 */
export type RouteAuth = 'public' | 'session' | 'key' | 'admin';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a route answers on success. */
export type RouteReply =
  /** The envelope `{status:"OK", payload}`; `status` is the success code (200 when left out). */
  | { kind: 'json'; payload?: z.ZodType; status?: 200 | 201 | 202; description?: string }
  /** A tool call: 202 with the job, or 200 with the ended job (or its image) after `?wait=`. */
  | { kind: 'job'; description: string }
  /** A plain JSON document outside the envelope (the OpenAPI document). */
  | { kind: 'document'; description: string }
  | { kind: 'redirect' | 'html' | 'csv' | 'text' | 'events' | 'zip' | 'pdf'; description: string }
  /** Image bytes (`image/webp`), not stored anywhere: the client reads them as a Blob (`ApiClient.image`). */
  | { kind: 'webp'; description: string };

/** A multipart/form-data file field as JSON Schema (for the OpenAPI document). */
export interface FileField {
  type: 'string' | 'array';
  contentMediaType?: string;
  maxItems?: number;
  items?: { type: 'string'; contentMediaType: string };
  description: string;
}

export interface RouteSpec {
  method: HttpMethod;
  /** Path below /api in OpenAPI form (`/jobs/{id}`); the server mounts it as `/jobs/:id`. */
  path: string;
  auth: RouteAuth;
  tag: string;
  summary: string;
  /** The query string; the server parses it before the handler runs (a failure is the 422 envelope). */
  query?: z.ZodObject;
  /** The JSON body; parsed like the query. */
  body?: z.ZodType;
  /**
   * A multipart/form-data upload: the handler streams it (the server cannot parse it ahead), `fields` are
   * its text fields and `files` its file fields.
   */
  form?: { fields: z.ZodObject; files: Record<string, FileField>; requiredFiles?: readonly string[] };
  /**
   * `handler`: the query and body are documented here but checked by the handler's own code, which reports
   * its fields in an order and with messages of its own (a tool definition, the checkout); the handler
   * gets them unparsed.
   */
  validatedBy?: 'handler';
  /** Error statuses beyond those every route of its kind answers (see routeErrors). */
  extraErrors?: readonly number[];
  /**
   * Called by the operator's infrastructure or the payment provider, never by a customer's script (probes,
   * metrics, Stripe's webhook and return, the test checkout): `x-audience: operator` in the OpenAPI
   * document, and left out of the public /developers reference.
   */
  operator?: true;
  reply: RouteReply;
}

/** A route of the table: its spec plus the error statuses it can answer (for the OpenAPI document). */
export type Route<S extends RouteSpec = RouteSpec> = S & { readonly errors: readonly number[] };

/**
 * The failures a route can answer with: 500 always; 422 when it takes input; 401, 403 and 429 unless it is
 * public; 404 when its path names a thing; plus its `extraErrors`.
 */
function routeErrors(spec: RouteSpec): number[] {
  const errors = new Set<number>([500, ...(spec.extraErrors ?? [])]);
  if (spec.body || spec.query || spec.form) errors.add(422);
  if (spec.auth !== 'public') for (const status of [401, 403, 429]) errors.add(status);
  if (spec.path.includes('{')) errors.add(404);
  return [...errors].sort((a, b) => a - b);
}

/** One entry of the route table (contracts/src/routes): the spec as written, with its error statuses. */
export function defineRoute<const S extends RouteSpec>(spec: S): Route<S> {
  return { ...spec, errors: routeErrors(spec) };
}

type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamNames<Rest> : never;

/** `{ id: string }` for `/jobs/{id}`. */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };

type Parsed<T> = T extends z.ZodType ? z.output<T> : undefined;
type Sent<T> = T extends z.ZodType ? z.input<T> : undefined;

/** What the handler receives as the query / body (parsed), and what a client sends (before parsing). */
export type RouteQuery<R extends RouteSpec> = R['validatedBy'] extends 'handler' ? unknown : Parsed<R['query']>;
export type RouteBody<R extends RouteSpec> = R['validatedBy'] extends 'handler' ? unknown : Parsed<R['body']>;
export type RouteQueryInput<R extends RouteSpec> = Sent<R['query']>;
export type RouteBodyInput<R extends RouteSpec> = R['form'] extends object
  ? FormData
  : R['validatedBy'] extends 'handler'
    ? Record<string, unknown>
    : Sent<R['body']>;

/** The envelope's payload of a JSON route (undefined for a route that sends only a message); a tool call's job. */
export type RoutePayload<R extends RouteSpec> = R['reply'] extends { kind: 'json'; payload: infer P }
  ? P extends z.ZodType
    ? z.output<P>
    : undefined
  : R['reply'] extends { kind: 'job' }
    ? JobView
    : undefined;
