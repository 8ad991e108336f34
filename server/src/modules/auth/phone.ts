import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * The E.164 form of a phone number, or null when it is not a valid number. The client sends both the
 * typed `phone` and its own `phoneE164`; the server trusts neither and validates the E.164 one when
 * present, else the typed one (which must then carry its country code).
 */
export function normalizePhone(phone: string, phoneE164?: string | null): string | null {
  const candidate = phoneE164 && phoneE164.trim() !== '' ? phoneE164 : phone;
  const parsed = parsePhoneNumberFromString(candidate.trim());
  return parsed?.isValid() ? parsed.number : null;
}
