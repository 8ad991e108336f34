import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import Stripe from 'stripe';
import {
  type FakeCharge,
  type FakeSession,
  FakeStripeState,
  type StoredReply,
  fakeId,
  now,
  stripeError,
} from './fake-stripe-state';

/**
 * A stateful local stand-in for the Stripe API, spoken to by the real `stripe` SDK through
 * STRIPE_API_BASE. It keeps Checkout Sessions in memory (create, retrieve, expire), honours
 * Idempotency-Key like Stripe does (same key -> the stored reply), and builds webhook events signed
 * exactly as Stripe signs them. Tests drive the customer's side with pay(), completeAsync() and refund(),
 * and inject failures (slow replies, 500s) to exercise timeouts and retries.
 */

export type { FakeCharge, FakeSession } from './fake-stripe-state';

export interface FakeStripe {
  /** Base URL to put in STRIPE_API_BASE. */
  url: string;
  secretKey: string;
  sessions: Map<string, FakeSession>;
  /** Every create request the server handled (including idempotent replays), for assertions. */
  createRequests: number;
  /** Every request received, as "METHOD /path", in order. */
  requestLog: string[];
  /** Sessions whose metadata names this deposit. */
  sessionsForDeposit(depositId: string): FakeSession[];
  /** The customer pays: card payments complete as paid; `async` ones complete unpaid (bank debit). */
  pay(sessionId: string, opts?: { async?: boolean }): FakeSession;
  /** An async payment settles (true) or fails (false). */
  settleAsync(sessionId: string, succeeded: boolean): FakeSession;
  /** Refunds part or all of a paid session's charge; returns the charge as charge.refunded carries it. */
  refund(sessionId: string, amount?: number): FakeCharge;
  /** Wraps an object in an event envelope, as Stripe delivers it to a webhook endpoint. */
  event(type: string, object: unknown): Stripe.Event;
  /** Signs a payload the way Stripe does; `timestamp` in seconds, `secret` defaults to the webhook secret. */
  sign(payload: string, opts?: { secret?: string; timestamp?: number }): string;
  webhookSecret: string;
  /** The next `count` create calls are handled (state changes) but answered only after `ms`. */
  delayCreates(count: number, ms: number): void;
  /** The next `count` API calls fail with a 500 before doing anything. */
  failNext(count: number): void;
  close(): Promise<void>;
}

/** What the HTTP side shares with the test's controls: the state, the key, and the injected delays and failures. */
interface Wire {
  state: FakeStripeState;
  secretKey: string;
  /** Idempotent POST replies by "path|key". */
  idempotent: Map<string, StoredReply>;
  delayed: { count: number; ms: number };
  failures: number;
  api: Pick<FakeStripe, 'requestLog' | 'createRequests'>;
}

/** Starts the fake on a free port of 127.0.0.1. */
export async function startFakeStripe(opts: { secretKey?: string; webhookSecret?: string } = {}): Promise<FakeStripe> {
  const secretKey = opts.secretKey ?? `sk_test_${randomBytes(8).toString('hex')}`;
  const webhookSecret = opts.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`;
  const state = new FakeStripeState();
  const wire: Wire = {
    state,
    secretKey,
    idempotent: new Map(),
    delayed: { count: 0, ms: 0 },
    failures: 0,
    api: { requestLog: [], createRequests: 0 },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(wire, req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api: FakeStripe = {
    url: state.baseUrl,
    secretKey,
    webhookSecret,
    sessions: state.sessions,
    createRequests: 0,
    requestLog: [],
    sessionsForDeposit: (depositId) => [...state.sessions.values()].filter((s) => s.metadata.deposit_id === depositId),
    pay: (sessionId, payOpts = {}) => pay(state, sessionId, payOpts.async === true),
    settleAsync(sessionId, succeeded) {
      const session = state.mustGet(sessionId);
      if (succeeded) session.payment_status = 'paid';
      return { ...session };
    },
    refund: (sessionId, amount) => refund(state, sessionId, amount),
    event: stripeEvent,
    sign: (payload, signOpts = {}) =>
      Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: signOpts.secret ?? webhookSecret,
        timestamp: signOpts.timestamp ?? now(),
      }),
    delayCreates(count, ms) {
      wire.delayed = { count, ms };
    },
    failNext(count) {
      wire.failures = count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  // The fake's URL is known only now, so no request has come yet.
  wire.api = api;
  return api;
}

/** One HTTP request: the key checked, an injected failure or delay applied, an idempotent POST replayed. */
function answer(wire: Wire, req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): void {
  const url = new URL(req.url ?? '/', 'http://fake');
  const method = req.method ?? 'GET';
  wire.api.requestLog.push(`${method} ${url.pathname}`);
  const send = (reply: StoredReply, afterMs = 0) => {
    const write = () => {
      if (res.destroyed) return;
      res.writeHead(reply.status, { 'Content-Type': 'application/json', 'Request-Id': fakeId('req') });
      res.end(JSON.stringify(reply.body));
    };
    if (afterMs > 0) setTimeout(write, afterMs).unref();
    else write();
  };
  if (req.headers.authorization !== `Bearer ${wire.secretKey}`) {
    return send(stripeError(401, 'Invalid API Key provided.'));
  }
  if (wire.failures > 0) {
    wire.failures -= 1;
    return send({ status: 500, body: { error: { type: 'api_error', message: 'Injected failure.' } } });
  }
  const body = qs.parse(raw.toString('utf8')) as Record<string, unknown>;
  const key = req.headers['idempotency-key'];
  const stored = method === 'POST' && typeof key === 'string' ? `${url.pathname}|${key}` : null;
  let reply = stored ? wire.idempotent.get(stored) : undefined;
  if (!reply) {
    reply = wire.state.route(method, url.pathname, body);
    if (stored) wire.idempotent.set(stored, JSON.parse(JSON.stringify(reply)));
  }
  const isCreate = method === 'POST' && url.pathname === '/v1/checkout/sessions';
  if (isCreate) wire.api.createRequests += 1;
  if (isCreate && wire.delayed.count > 0) {
    wire.delayed.count -= 1;
    return send(reply, wire.delayed.ms);
  }
  send(reply);
}

function pay(state: FakeStripeState, sessionId: string, async: boolean): FakeSession {
  const session = state.mustGet(sessionId);
  if (session.status !== 'open') throw new Error(`fake stripe: session ${sessionId} is ${session.status}`);
  session.status = 'complete';
  session.url = null;
  session.payment_intent = fakeId('pi');
  session.payment_status = async ? 'unpaid' : 'paid';
  return { ...session };
}

function refund(state: FakeStripeState, sessionId: string, amount: number | undefined): FakeCharge {
  const session = state.mustGet(sessionId);
  if (session.payment_status !== 'paid' || !session.payment_intent) throw new Error('fake stripe: nothing to refund');
  const charge = state.chargeOf(session as FakeSession & { payment_intent: string });
  charge.amount_refunded = Math.min(charge.amount, charge.amount_refunded + (amount ?? charge.amount));
  charge.refunded = charge.amount_refunded === charge.amount;
  return { ...charge };
}

function stripeEvent(type: string, object: unknown): Stripe.Event {
  return {
    id: fakeId('evt'),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: now(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  } as unknown as Stripe.Event;
}
