import countries from 'i18n-iso-countries';
import de from 'i18n-iso-countries/langs/de.json';
import en from 'i18n-iso-countries/langs/en.json';

// The interface languages with country names in the package; others fall back to the stored English title.
countries.registerLocale(en);
countries.registerLocale(de);

/** ISO numeric codes 900-999 are user-assigned (Kosovo's XK uses 983): not ISO 3166-1 countries. */
const USER_ASSIGNED_FROM = 900;

/** Every ISO 3166-1 country from i18n-iso-countries: id = ISO numeric code, iso = alpha-2, English title. */
export function isoCountries(): Array<{ id: number; iso: string; title: string }> {
  return Object.entries(countries.getNumericCodes())
    .map(([numeric, iso]) => ({ id: Number(numeric), iso, title: countries.getName(iso, 'en') ?? iso }))
    .filter((c) => c.id < USER_ASSIGNED_FROM);
}

/** A country's name in a language code (e.g. "de"), or undefined when the package lacks it. */
export function countryName(iso: string, language: string): string | undefined {
  return countries.getName(iso, language);
}
