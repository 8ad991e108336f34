import type { Knex } from 'knex';
import type supertest from 'supertest';
import Stripe from 'stripe';
import { createTestContext, uniqueEmail, type TestContext } from '../../test/harness';
import { startFakeStripe, type FakeStripe } from '../../test/fake-stripe';
import { isolatedTestDatabase } from '../../test/auth-helpers';
import { applyEntryNow } from '../ledger';
import * as repo from './deposits.repository';

/** Test factories and helpers for the payments tests (not a test file itself). */

/** The settings that point the app's Stripe client and webhook check at the fake. */
export function fakeStripeEnv(fake: FakeStripe): Record<string, string> {
  return { STRIPE_SECRET_KEY: fake.secretKey, STRIPE_WEBHOOK_SECRET: fake.webhookSecret, STRIPE_API_BASE: fake.url };
}

/**
 * For the enclosing describe block: starts a fake Stripe and a test app configured against it before the
 * tests (handing both to `ready`), and closes both after.
 */
export function withFakeStripeApp(
  ready: (env: { fake: FakeStripe; t: TestContext }) => void,
  options: { freshDatabase?: string } = {},
): void {
  let env: { fake: FakeStripe; t: TestContext } | undefined;
  beforeAll(async () => {
    const fake = await startFakeStripe();
    const database: Record<string, string> = options.freshDatabase
      ? { DATABASE_URL: await isolatedTestDatabase(options.freshDatabase, { fresh: true }) }
      : {};
    const t = await createTestContext({ ...fakeStripeEnv(fake), ...database });
    env = { fake, t };
    ready(env);
  });
  afterAll(async () => {
    await env?.t.close();
    await env?.fake.close();
  });
}

/** Inserts a verified user straight into the database; returns its id. */
export async function insertUser(db: Knex, balanceTenths = 0): Promise<string> {
  const [row] = await db('users')
    .insert({
      email: uniqueEmail('pay'),
      password_hash: 'not-a-real-hash',
      email_verified_at: db.fn.now(),
      balance_tenths: 0,
    })
    .returning('id');
  const id = (row as { id: string }).id;
  if (balanceTenths > 0) {
    await applyEntryNow(db, {
      userId: id,
      deltaTenths: balanceTenths,
      kind: 'grant',
      idempotencyKey: `test-grant:${id}`,
    });
  }
  return id;
}

/** A Pending deposit of 10 tokens for 12.34 EUR (or the overrides). */
export async function insertDeposit(
  db: Knex,
  userId: string,
  overrides: Partial<repo.NewDeposit> = {},
): Promise<repo.Deposit> {
  return repo.insertDeposit(db, {
    user_id: userId,
    provider: 'stripe',
    tokens_tenths: 100,
    pack_id: null,
    pack_title: null,
    currency: 'EUR',
    net_minor: 1234,
    vat_minor: 0,
    amount_minor: 1234,
    vat_percent: '0',
    payment_method_id: 1,
    payment_method_code: 'card',
    payment_method_title: 'Credit/Debit card',
    lang: 'en',
    billing: {
      name: 'Ada',
      surname: 'Lovelace',
      email: 'ada@example.test',
      phone: '+44 1234 5678',
      country_id: 1,
      country: 'UK',
      city: 'London',
      address: '1 Main St',
      post_code: 'N1',
    },
    ...overrides,
  });
}

/** Opens a Checkout Session for a deposit on the fake, as the checkout service does, and stores its id. */
export async function openSession(db: Knex, fake: FakeStripe, deposit: repo.Deposit): Promise<string> {
  const base = new URL(fake.url);
  const stripe = new Stripe(fake.secretKey, { host: base.hostname, port: Number(base.port), protocol: 'http' });
  const session = await stripe.checkout.sessions.create({
    mode: 'payment',
    client_reference_id: deposit.id,
    metadata: { deposit_id: deposit.id },
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: deposit.currency.toLowerCase(),
          unit_amount: deposit.amount_minor,
          product_data: { name: 'Tokens' },
        },
      },
    ],
    success_url: 'http://127.0.0.1/success',
    cancel_url: 'http://127.0.0.1/cancel',
  });
  await repo.updateDeposit(db, deposit.id, { stripe_session_id: session.id, checkout_url: session.url });
  return session.id;
}

/** Posts an event to the webhook as Stripe would: raw JSON body plus its signature header. */
export function deliver(
  agent: supertest.Agent | ReturnType<typeof supertest>,
  fake: FakeStripe,
  event: Stripe.Event | string,
  sign: { secret?: string; timestamp?: number } = {},
): supertest.Test {
  const payload = typeof event === 'string' ? event : JSON.stringify(event);
  return agent
    .post('/api/webhooks/stripe')
    .set('Content-Type', 'application/json')
    .set('Stripe-Signature', fake.sign(payload, sign))
    .send(payload);
}

export async function balanceOf(db: Knex, userId: string): Promise<number> {
  const row = await db('users').where({ id: userId }).first('balance_tenths');
  return Number((row as { balance_tenths: string }).balance_tenths);
}

export async function ledgerRows(
  db: Knex,
  userId: string,
): Promise<Array<{ kind: string; delta_tenths: string; idempotency_key: string; metadata: Record<string, unknown> }>> {
  return db('token_ledger').where({ user_id: userId }).orderBy('id');
}
