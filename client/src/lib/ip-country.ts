/**
 * One lookup of the visitor's country from a plain-text IP service whose reply starts with "1" on success
 * and carries the ISO code at characters 3-4 ("1;DE;DEU;Germany"). Never throws and never blocks the
 * page: an unreachable or slow service just gives null.
 */
export function parseIpCountryReply(text: string): string | null {
  if (!text.startsWith('1')) return null;
  const iso = text.slice(2, 4).toUpperCase();
  return /^[A-Z]{2}$/.test(iso) ? iso : null;
}

let pending: Promise<string | null> | null = null;

/** Looks the country up once per page load; later callers share the first answer. */
export function lookupCountry(url: string, timeoutMs: number, fetchImpl?: typeof fetch): Promise<string | null> {
  const doFetch = fetchImpl ?? (typeof fetch === 'function' ? fetch : null);
  if (!url || !doFetch) return Promise.resolve(null);
  if (!pending) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    pending = doFetch(url, { signal: controller.signal, credentials: 'omit' })
      .then((res) => (res.ok ? res.text() : ''))
      .then(parseIpCountryReply)
      .catch(() => null)
      .finally(() => clearTimeout(timer));
  }
  return pending;
}

/** Test hook: forget the cached answer. */
export function resetCountryLookup(): void {
  pending = null;
}
