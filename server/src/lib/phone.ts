import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/**
 * The E.164 form of a phone number, or null when it is not a valid number. The client sends both the
 * typed `phone` and its own `phoneE164`; the server trusts neither and validates the E.164 one when
 * present, else the typed one (which must then carry its country code).
 */
export function normalizePhone(phone: string, phoneE164?: string | null, defaultCountry?: string): string | null {
  const candidate = phoneE164 && phoneE164.trim() !== '' ? phoneE164 : phone;
  // a number typed without its country code is read as one of `defaultCountry` (ISO alpha-2), if given
  const parsed = parsePhoneNumberFromString(candidate.trim(), defaultCountry?.toUpperCase() as CountryCode | undefined);
  return parsed?.isValid() ? parsed.number : null;
}
