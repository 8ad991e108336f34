import { AsYouType, getCountryCallingCode, type CountryCode } from 'libphonenumber-js';
import { LIMITS_UI } from '../config/constants';

/** What the phone input reports (text, calling code, national number, validity), plus the E.164 form. */
export interface PhoneValue {
  phone: string;
  phoneCountryCode: string;
  nationalNumber: string;
  isValid: boolean;
  e164: string;
}

export interface PhoneInterpretation {
  value: PhoneValue;
  /** The country the number belongs to, when it can be told (from a "+" prefix or the chosen country). */
  country?: string;
  /** The number belongs to a country outside the supported list: the caller clears it and says so. */
  unsupported: boolean;
}

function callingCode(country: string | undefined): string {
  try {
    return country ? getCountryCallingCode(country as CountryCode) : '';
  } catch {
    return '';
  }
}

/**
 * Reads what the user typed: at most 25 characters, parsed for the chosen country (or the one its "+"
 * prefix names). `allowed` holds the supported ISO codes; empty means the list is not known yet.
 */
export function interpretPhone(
  raw: string,
  chosenCountry: string | undefined,
  allowed: Set<string>,
): PhoneInterpretation {
  const text = raw.slice(0, LIMITS_UI.phoneMaxLength);
  const typer = new AsYouType(text.startsWith('+') ? undefined : (chosenCountry as CountryCode | undefined));
  typer.input(text);
  const number = typer.getNumber();
  const detected = text.startsWith('+') ? typer.getCountry() : chosenCountry;
  const unsupported = Boolean(text.startsWith('+') && detected && allowed.size > 0 && !allowed.has(detected));
  return {
    value: {
      phone: text,
      phoneCountryCode: number?.countryCallingCode ?? callingCode(detected ?? chosenCountry),
      nationalNumber: number?.nationalNumber ?? '',
      isValid: Boolean(number?.isValid()) && !unsupported,
      e164: number?.number ?? '',
    },
    country: detected,
    unsupported,
  };
}

/**
 * The country an international number ("+49 30 ...") belongs to, when libphonenumber can tell and the country
 * is supported (`allowed` empty: any); undefined for a national number or one it cannot place yet.
 */
export function countryOfNumber(raw: string, allowed: Set<string>): string | undefined {
  if (!raw.trim().startsWith('+')) return undefined;
  const typer = new AsYouType();
  typer.input(raw.trim().slice(0, LIMITS_UI.phoneMaxLength));
  const country = typer.getCountry();
  return country && (allowed.size === 0 || allowed.has(country)) ? country : undefined;
}

/** "+49" for a country code, or "" when libphonenumber does not know it. */
export function dialPrefix(iso: string): string {
  const code = callingCode(iso.toUpperCase());
  return code ? `+${code}` : '';
}
