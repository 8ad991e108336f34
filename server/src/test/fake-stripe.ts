import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import Stripe from 'stripe';

/**
 * A stateful local stand-in for the Stripe API, spoken to by the real `stripe` SDK through
 * STRIPE_API_BASE. It keeps Checkout Sessions in memory (create, retrieve, expire), honours
 * Idempotency-Key like Stripe does (same key -> the stored reply), and builds webhook events signed
 * exactly as Stripe signs them. Tests drive the customer's side with pay(), completeAsync() and refund(),
 * and inject failures (slow replies, 500s) to exercise timeouts and retries.
 */

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  amount_total: number;
  amount_subtotal: number;
  currency: string;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  payment_method_types: string[];
  success_url: string;
  cancel_url: string;
  url: string | null;
  created: number;
  expires_at: number;
  livemode: false;
  /** What the SDK sent for the line items (kept for assertions; real Stripe lists them separately). */
  line_items_sent: unknown;
}

export interface FakeCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  currency: string;
  payment_intent: string;
  refunded: boolean;
  metadata: Record<string, string>;
}

interface StoredReply {
  status: number;
  body: unknown;
}

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

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

function stripeError(status: number, message: string, type = 'invalid_request_error'): StoredReply {
  return { status, body: { error: { type, message } } };
}

/** Starts the fake on a free port of 127.0.0.1. */
export async function startFakeStripe(opts: { secretKey?: string; webhookSecret?: string } = {}): Promise<FakeStripe> {
  const secretKey = opts.secretKey ?? `sk_test_${randomBytes(8).toString('hex')}`;
  const webhookSecret = opts.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`;
  const sessions = new Map<string, FakeSession>();
  const charges = new Map<string, FakeCharge>();
  const idempotent = new Map<string, StoredReply>();
  let delayed = { count: 0, ms: 0 };
  let failures = 0;
  let baseUrl = '';

  function createSession(body: Record<string, unknown>): StoredReply {
    type LineItem = { quantity?: string; price_data?: { currency?: string; unit_amount?: string } };
    const items = Array.isArray(body.line_items) ? (body.line_items as LineItem[]) : [];
    if (items.length === 0) return stripeError(400, 'Missing required param: line_items.');
    let total = 0;
    let currency = '';
    for (const item of items) {
      const unit = Number(item.price_data?.unit_amount);
      const quantity = Number(item.quantity ?? 1);
      if (!Number.isInteger(unit) || unit < 0) return stripeError(400, 'Invalid integer: unit_amount');
      currency = String(item.price_data?.currency ?? '');
      total += unit * quantity;
    }
    // Stripe refuses three-decimal amounts that are not a multiple of 10.
    if (['bhd', 'jod', 'kwd', 'omr', 'tnd'].includes(currency) && total % 10 !== 0) {
      return stripeError(400, 'Amounts in three-decimal currencies must end in 0.');
    }
    const session: FakeSession = {
      id: id('cs_test'),
      object: 'checkout.session',
      mode: String(body.mode ?? 'payment'),
      status: 'open',
      payment_status: 'unpaid',
      amount_total: total,
      amount_subtotal: total,
      currency,
      customer_email: (body.customer_email as string | undefined) ?? null,
      client_reference_id: (body.client_reference_id as string | undefined) ?? null,
      metadata: (body.metadata as Record<string, string> | undefined) ?? {},
      payment_intent: null,
      payment_method_types: (body.payment_method_types as string[] | undefined) ?? ['card'],
      success_url: String(body.success_url ?? ''),
      cancel_url: String(body.cancel_url ?? ''),
      url: '',
      created: now(),
      expires_at: Number(body.expires_at ?? now() + 24 * 3600),
      livemode: false,
      line_items_sent: items,
    };
    session.url = `${baseUrl}/c/pay/${session.id}`;
    sessions.set(session.id, session);
    return { status: 200, body: session };
  }

  function expireSession(sessionId: string): StoredReply {
    const session = sessions.get(sessionId);
    if (!session) return stripeError(404, `No such checkout.session: '${sessionId}'`);
    if (session.status !== 'open') {
      return stripeError(
        400,
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
      );
    }
    session.status = 'expired';
    session.url = null;
    return { status: 200, body: session };
  }

  function route(method: string, path: string, body: Record<string, unknown>): StoredReply {
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(body);
    const retrieve = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(path);
    if (method === 'GET' && retrieve) {
      const session = sessions.get(retrieve[1]!);
      return session ? { status: 200, body: session } : stripeError(404, `No such checkout.session: '${retrieve[1]}'`);
    }
    const expire = /^\/v1\/checkout\/sessions\/([\w]+)\/expire$/.exec(path);
    if (method === 'POST' && expire) return expireSession(expire[1]!);
    return stripeError(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      api.requestLog.push(`${method} ${url.pathname}`);
      const send = (reply: StoredReply, afterMs = 0) => {
        const write = () => {
          if (res.destroyed) return;
          res.writeHead(reply.status, { 'Content-Type': 'application/json', 'Request-Id': id('req') });
          res.end(JSON.stringify(reply.body));
        };
        if (afterMs > 0) setTimeout(write, afterMs).unref();
        else write();
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        return send(stripeError(401, 'Invalid API Key provided.'));
      }
      if (failures > 0) {
        failures -= 1;
        return send({ status: 500, body: { error: { type: 'api_error', message: 'Injected failure.' } } });
      }
      const body = qs.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const key = req.headers['idempotency-key'];
      let reply: StoredReply;
      const replay =
        method === 'POST' && typeof key === 'string' ? idempotent.get(`${url.pathname}|${key}`) : undefined;
      if (replay) {
        reply = replay;
      } else {
        reply = route(method, url.pathname, body);
        if (method === 'POST' && typeof key === 'string')
          idempotent.set(`${url.pathname}|${key}`, JSON.parse(JSON.stringify(reply)));
      }
      const isCreate = method === 'POST' && url.pathname === '/v1/checkout/sessions';
      if (isCreate) api.createRequests += 1;
      if (isCreate && delayed.count > 0) {
        delayed.count -= 1;
        return send(reply, delayed.ms);
      }
      send(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function mustGet(sessionId: string): FakeSession {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`fake stripe: no session ${sessionId}`);
    return session;
  }

  const api: FakeStripe = {
    url: baseUrl,
    secretKey,
    webhookSecret,
    sessions,
    createRequests: 0,
    requestLog: [],
    sessionsForDeposit: (depositId) => [...sessions.values()].filter((s) => s.metadata.deposit_id === depositId),
    pay(sessionId, payOpts = {}) {
      const session = mustGet(sessionId);
      if (session.status !== 'open') throw new Error(`fake stripe: session ${sessionId} is ${session.status}`);
      session.status = 'complete';
      session.url = null;
      session.payment_intent = id('pi');
      session.payment_status = payOpts.async ? 'unpaid' : 'paid';
      return { ...session };
    },
    settleAsync(sessionId, succeeded) {
      const session = mustGet(sessionId);
      if (succeeded) session.payment_status = 'paid';
      return { ...session };
    },
    refund(sessionId, amount) {
      const session = mustGet(sessionId);
      if (session.payment_status !== 'paid' || !session.payment_intent)
        throw new Error('fake stripe: nothing to refund');
      let charge = [...charges.values()].find((c) => c.payment_intent === session.payment_intent);
      if (!charge) {
        charge = {
          id: id('ch'),
          object: 'charge',
          amount: session.amount_total,
          amount_refunded: 0,
          currency: session.currency,
          payment_intent: session.payment_intent,
          refunded: false,
          metadata: {},
        };
        charges.set(charge.id, charge);
      }
      charge.amount_refunded = Math.min(charge.amount, charge.amount_refunded + (amount ?? charge.amount));
      charge.refunded = charge.amount_refunded === charge.amount;
      return { ...charge };
    },
    event(type, object) {
      return {
        id: id('evt'),
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: now(),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object },
      } as unknown as Stripe.Event;
    },
    sign(payload, signOpts = {}) {
      return Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: signOpts.secret ?? webhookSecret,
        timestamp: signOpts.timestamp ?? now(),
      });
    },
    delayCreates(count, ms) {
      delayed = { count, ms };
    },
    failNext(count) {
      failures = count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}
