import {
  CHECKOUT_MESSAGES as M,
  SIMPLE_EMAIL_PATTERN,
  checkoutBillingSchema,
  parseTopUpChoice,
  type FieldErrors,
} from '@imagestudio/contracts';
import type { CurrentUser } from '../users';
import { zodToFieldErrors } from '../../http/error-handler';
import { serviceUnavailable, validationError } from '../../lib/errors';
import { normalizePhone } from '../../lib/phone';
import { isoCountries } from '../catalog';
import { saveBillingToProfile } from './billing-profile.repository';
import { checkoutCatalog } from './catalog-lookup';
import { priceTopUp } from './checkout-quote';
import * as repo from './deposits.repository';
import type { Payments } from './payments.context';
import { openCheckoutSession } from './stripe-checkout';
import { testCheckoutToken } from './test-checkout-token';

export interface CheckoutStarted {
  depositId: string;
  /** Where the browser goes next; always carries `order=<depositId>`. */
  redirectUrl: string;
}

/** Without a Stripe key only the built-in test checkout exists, and production must never use it. */
export function assertPaymentsAvailable(payments: Payments): void {
  if (!payments.stripe && payments.ctx.config.NODE_ENV === 'production') {
    throw serviceUnavailable('Payments are not configured.');
  }
}

/** Validates the form (all field messages at once), then checks what needs the catalog. */
async function readCheckoutForm(payments: Payments, user: CurrentUser, body: Record<string, unknown>) {
  const errors: FieldErrors = {};
  const billing = checkoutBillingSchema.safeParse(body);
  if (!billing.success) Object.assign(errors, firstPerField(zodToFieldErrors(billing.error)));
  const choice = parseTopUpChoice(body);
  if ('field' in choice) errors[choice.field] = [choice.message];
  // The account email overrides the form's; the form's is used only without one.
  const email = user.email || (billing.success ? (billing.data.email ?? '') : '');
  if (!email) errors.email = [M.emailRequired];
  else if (!user.email && !SIMPLE_EMAIL_PATTERN.test(email)) errors.email = [M.emailInvalid];
  if (!billing.success || 'field' in choice || errors.email) throw validationError(errors);

  const catalog = checkoutCatalog(payments.ctx);
  const form = billing.data;
  const [settings, currency, country] = await Promise.all([
    catalog.settings(),
    catalog.currency(form.currency),
    catalog.country(form.country),
  ]);
  const method = settings.payment_methods.find((pm) => pm.id === form.payment_method_id);
  if (!method) errors.payment_method_id = [M.paymentMethod];
  if (!currency) errors.currency = [M.invalidCurrency];
  if (!country) errors.country = [M.countryRequired];
  if (!method || !currency || !country) throw validationError(errors);
  return { form, choice, email, settings, currency, country, method, catalog };
}

function firstPerField(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([field, list]) => [field, list.slice(0, 1)]));
}

/**
 * POST /api/deposit/checkout: validates the form, prices the choice on the server, optionally saves the
 * billing fields to the profile, records a Pending deposit and opens its payment page (a Stripe
 * Checkout Session, or the built-in test checkout when no Stripe key is configured).
 */
export async function startCheckout(
  payments: Payments,
  user: CurrentUser,
  body: Record<string, unknown>,
  lang: string,
): Promise<CheckoutStarted> {
  assertPaymentsAvailable(payments);
  const { form, choice, email, settings, currency, country, method, catalog } = await readCheckoutForm(
    payments,
    user,
    body,
  );
  const priced = await priceTopUp({
    choice,
    currency,
    minTopUp: settings.min_top_up,
    catalog,
    viaStripe: payments.stripe !== null,
  });
  const billing: repo.BillingSnapshot = {
    name: form.name,
    surname: form.surname,
    email,
    phone: form.phone,
    phone_e164: normalizePhone(form.phone, null, isoCountries().find((c) => c.id === country.id)?.iso),
    country_id: country.id,
    country: country.title,
    city: form.city,
    address: form.address,
    post_code: form.postCode,
  };
  if (form.save_info) await saveBillingToProfile(payments.ctx.db, user.id, billing);

  const deposit = await repo.insertDeposit(payments.ctx.db, {
    user_id: user.id,
    provider: payments.stripe ? 'stripe' : 'test',
    tokens_tenths: priced.quote.tenths,
    pack_id: priced.pack?.id ?? null,
    pack_title: priced.pack?.title ?? null,
    currency: currency.code,
    net_minor: priced.quote.subtotalMinor,
    vat_minor: priced.quote.vatMinor,
    amount_minor: priced.quote.totalMinor,
    vat_percent: String(settings.vat_percent),
    payment_method_id: method.id,
    payment_method_code: method.code,
    payment_method_title: method.title,
    billing,
    lang,
  });
  const appUrl = payments.ctx.config.APP_URL;
  if (!payments.stripe) {
    const token = testCheckoutToken(payments.ctx.config, deposit.id);
    return {
      depositId: deposit.id,
      redirectUrl: `${appUrl}/api/deposit/test-checkout?order=${deposit.id}&token=${token}`,
    };
  }
  await openCheckoutSession(payments, payments.stripe, deposit);
  return { depositId: deposit.id, redirectUrl: `${appUrl}/api/deposit/redirect?order=${deposit.id}` };
}
