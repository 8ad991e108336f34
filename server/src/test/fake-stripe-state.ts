import { randomBytes } from 'node:crypto';

/**
 * The fake Stripe's state (fake-stripe.ts): Checkout Sessions and charges in memory, and the API calls the SDK
 * makes on them (create, retrieve, expire), answered as Stripe answers them.
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

export interface StoredReply {
  status: number;
  body: unknown;
}

export const fakeId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
export const now = () => Math.floor(Date.now() / 1000);

/** How long a Checkout Session stays open unless the request says otherwise (Stripe's default). */
const SESSION_LIFETIME_S = 24 * 3600;
/** Currencies with three decimals, whose amounts Stripe wants in multiples of 10. */
const THREE_DECIMAL_CURRENCIES = ['bhd', 'jod', 'kwd', 'omr', 'tnd'];

export function stripeError(status: number, message: string, type = 'invalid_request_error'): StoredReply {
  return { status, body: { error: { type, message } } };
}

export class FakeStripeState {
  readonly sessions = new Map<string, FakeSession>();
  readonly charges = new Map<string, FakeCharge>();
  /** Where the fake listens, for the sessions' payment URLs. */
  baseUrl = '';

  /** Answers one API call. */
  route(method: string, path: string, body: Record<string, unknown>): StoredReply {
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createSession(body);
    const retrieve = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(path);
    if (method === 'GET' && retrieve) {
      const session = this.sessions.get(retrieve[1]!);
      return session ? { status: 200, body: session } : stripeError(404, `No such checkout.session: '${retrieve[1]}'`);
    }
    const expire = /^\/v1\/checkout\/sessions\/([\w]+)\/expire$/.exec(path);
    if (method === 'POST' && expire) return this.expireSession(expire[1]!);
    return stripeError(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  mustGet(sessionId: string): FakeSession {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`fake stripe: no session ${sessionId}`);
    return session;
  }

  /** The charge behind a paid session, made on first use. */
  chargeOf(session: FakeSession & { payment_intent: string }): FakeCharge {
    let charge = [...this.charges.values()].find((c) => c.payment_intent === session.payment_intent);
    if (!charge) {
      charge = {
        id: fakeId('ch'),
        object: 'charge',
        amount: session.amount_total,
        amount_refunded: 0,
        currency: session.currency,
        payment_intent: session.payment_intent,
        refunded: false,
        metadata: {},
      };
      this.charges.set(charge.id, charge);
    }
    return charge;
  }

  private createSession(body: Record<string, unknown>): StoredReply {
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
    if (THREE_DECIMAL_CURRENCIES.includes(currency) && total % 10 !== 0) {
      return stripeError(400, 'Amounts in three-decimal currencies must end in 0.');
    }
    const session: FakeSession = {
      id: fakeId('cs_test'),
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
      expires_at: Number(body.expires_at ?? now() + SESSION_LIFETIME_S),
      livemode: false,
      line_items_sent: items,
    };
    session.url = `${this.baseUrl}/c/pay/${session.id}`;
    this.sessions.set(session.id, session);
    return { status: 200, body: session };
  }

  private expireSession(sessionId: string): StoredReply {
    const session = this.sessions.get(sessionId);
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
}
