import { z } from 'zod';
import { CHECKOUT_MESSAGES, CHECKOUT_PHONE_PATTERN } from './checkout';

/** The zod schema of the checkout's billing fields (checkout.ts has the messages and the top-up choice). */

const m = CHECKOUT_MESSAGES;

const required = (message: string, max = 255) =>
  z.string({ error: message }).trim().min(1, { error: message }).max(max, { error: message });

/** A form value that may arrive as a number or as text ("3"); anything else fails with `message`. */
const positiveId = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
    z.number({ error: message }).int({ error: message }).positive({ error: message }),
  );

/** Checkbox-like values: true, "true", "1", 1, "on". */
const flag = z.preprocess((v) => v === true || v === 1 || v === 'true' || v === '1' || v === 'on', z.boolean());

/** Billing fields and payment options; client-sent prices and totals are not part of it and are dropped. */
export const checkoutBillingSchema = z.object({
  name: required(m.firstName, 100),
  surname: required(m.lastName, 100),
  phone: required(m.phoneRequired, 25).regex(CHECKOUT_PHONE_PATTERN, { error: m.phoneInvalid }),
  /** Used only when the account has no email of its own (the account email overrides it). */
  email: z.string().trim().max(254).optional().catch(undefined),
  country: positiveId(m.countryRequired),
  city: required(m.cityRequired, 100),
  address: required(m.addressRequired),
  postCode: required(m.postCodeRequired, 20),
  save_info: flag.default(false),
  payment_method_id: positiveId(m.paymentMethod),
  currency: z
    .string({ error: m.invalidCurrency })
    .trim()
    .regex(/^[A-Za-z]{3}$/, { error: m.invalidCurrency })
    .transform((c) => c.toUpperCase())
    .default('EUR'),
});
export type CheckoutBilling = z.infer<typeof checkoutBillingSchema>;
