import { getCountriesForTimezone } from 'countries-and-timezones';

/**
 * The visitor's likely country, guessed in the browser from its time zone and preferred languages, so the
 * phone and billing forms can preselect it without asking a third party where an IP address is (no request
 * leaves the page before the visitor consents to anything). A guess only: the visitor can always change it.
 *
 * The time zone names the place best (Europe/Vienna is Austria whatever the language); where one zone serves
 * several countries (Europe/Zurich: CH, DE, LI) a language's region that is one of them wins, otherwise the
 * zone's principal country. Without a usable zone (UTC, Etc/*) the first language with a region decides.
 */
export function guessCountry(languages: readonly string[], timeZone: string | undefined): string | null {
  const zoneCountries = timeZone ? getCountriesForTimezone(timeZone).map((c) => c.id.toUpperCase()) : [];
  const languageRegions = languages.map(regionOf).filter((r): r is string => r !== null);
  const agreed = languageRegions.find((r) => zoneCountries.includes(r));
  return agreed ?? zoneCountries[0] ?? languageRegions[0] ?? null;
}

/** "de-AT" -> "AT"; a bare or malformed tag has no region. */
function regionOf(tag: string): string | null {
  try {
    const region = new Intl.Locale(tag).region;
    return region && /^[A-Z]{2}$/.test(region) ? region : null;
  } catch {
    return null;
  }
}

/** The guess for this browser; null outside one (tests without navigator) or when nothing is known. */
export function guessBrowserCountry(): string | null {
  if (typeof navigator === 'undefined') return null;
  const languages = navigator.languages?.length ? navigator.languages : [navigator.language].filter(Boolean);
  let timeZone: string | undefined;
  try {
    timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    timeZone = undefined;
  }
  return guessCountry(languages, timeZone);
}
