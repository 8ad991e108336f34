import { z } from 'zod';
import type { JobView } from '../jobs';
import {
  addressOf,
  API_ADDRESSES,
  REMOVEBG_ADDRESSES,
  type ApiAddresses,
  type MethodOf,
  type PathOf,
  type RemoveBgAddresses,
  type RouteAddress,
} from './addresses';

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
  | { kind: 'webp'; description: string }
  /**
   * remove.bg's own replies (the /v1.0 routes): its JSON documents outside the envelope (`payload`), or the
   * image in the format asked for, with `payload` the JSON form sent for `Accept: application/json`.
   */
  | { kind: 'removebg'; description: string; image?: true; payload: z.ZodType; headers?: Record<string, ReplyHeader> };

/** A reply header, for the OpenAPI document. */
export interface ReplyHeader {
  description?: string;
  type: 'integer' | 'string';
}

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
  form?: {
    fields: z.ZodObject;
    files: Record<string, FileField>;
    requiredFiles?: readonly string[];
    /** The same text fields may come as these bodies instead (the files then as base64 text fields). */
    alsoAs?: readonly ('application/x-www-form-urlencoded' | 'application/json')[];
  };
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
  /**
   * A route of the remove.bg-compatible API, mounted below REMOVEBG_BASE rather than /api: remove.bg's replies
   * and error shape (400 for a bad field, 403 for a bad key; never the envelope).
   */
  compat?: 'removebg';
  /** What an error status means for this route, where the default description would not say (the codes sent). */
  errorNotes?: Partial<Record<number, string>>;
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
  if (spec.compat === 'removebg') {
    if (spec.auth !== 'public') for (const status of [403, 429]) errors.add(status);
    return [...errors].sort((a, b) => a - b);
  }
  if (spec.body || spec.query || spec.form) errors.add(422);
  if (spec.auth !== 'public') for (const status of [401, 403, 429]) errors.add(status);
  if (spec.path.includes('{')) errors.add(404);
  return [...errors].sort((a, b) => a - b);
}

type Addresses = ApiAddresses & RemoveBgAddresses;
const ADDRESSES: Addresses = { ...API_ADDRESSES, ...REMOVEBG_ADDRESSES };

/** An entry as an area file writes it: everything but its method and path, which its address gives. */
export type RouteDetails = Omit<RouteSpec, 'method' | 'path'>;

/** The entry of `details` at `address`, with its error statuses. */
type Addressed<A, S> = S & { method: MethodOf<A>; path: PathOf<A>; readonly errors: readonly number[] };

/** One entry of the route table at `address` (a tool's call; areas use defineRoutes). */
export function defineRoute<const A extends RouteAddress, const S extends RouteDetails>(
  address: A,
  details: S,
): Addressed<A, S> {
  const spec = { ...addressOf(address), ...details };
  return { ...spec, errors: routeErrors(spec) } as Addressed<A, S>;
}

/**
 * An area of the route table: one entry per name of the area in addresses.ts, each the spec as written (its
 * literal types kept, so the handler's `params` are `{ id: string }` for `/jobs/{id}`) with its method, path
 * and error statuses.
 */
export function defineRoutes<
  const Area extends keyof Addresses,
  const S extends { [K in keyof Addresses[Area]]: RouteDetails },
>(area: Area, details: S): { [K in keyof Addresses[Area]]: Addressed<Addresses[Area][K], S[K]> } {
  const addresses = ADDRESSES[area] as Record<string, RouteAddress>;
  const entries = Object.entries(details as Record<string, RouteDetails>);
  return Object.fromEntries(entries.map(([name, spec]) => [name, defineRoute(addresses[name]!, spec)])) as {
    [K in keyof Addresses[Area]]: Addressed<Addresses[Area][K], S[K]>;
  };
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
