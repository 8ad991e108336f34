import type { Knex } from 'knex';
import type { BillingSnapshot } from './deposits.repository';

/**
 * "Save information for future payments": copies the checkout's billing fields onto the profile
 * (users columns name, surname, phone, country_id, city, address, post_code). The email is never
 * changed here; the account email is the one checkout used.
 */
export async function saveBillingToProfile(db: Knex, userId: string, billing: BillingSnapshot): Promise<void> {
  await db('users')
    .where({ id: userId })
    .update({
      name: billing.name,
      surname: billing.surname,
      phone: billing.phone,
      ...(billing.phone_e164 && { phone_e164: billing.phone_e164 }),
      country_id: billing.country_id,
      city: billing.city,
      address: billing.address,
      post_code: billing.post_code,
      updated_at: db.fn.now(),
    });
}
