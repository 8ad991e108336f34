/*
 * The company details in the settings are the operator's own text in one language. The footer shows them in the
 * reader's language where a part has a known form: the country at the end of the address (its English name, as
 * in the default "..., 10117 Berlin, Germany") and the "VAT ID" label of the requisites.
 */

/** Names already looked up: the footer renders often and the lookup walks every two-letter code. */
const regionCache = new Map<string, string | null>();

/** The region code whose English name is `name`, or null. */
function regionOfEnglishName(name: string): string | null {
  const key = name.trim().toLowerCase();
  if (!regionCache.has(key)) regionCache.set(key, findRegion(key));
  return regionCache.get(key) ?? null;
}

function findRegion(wanted: string): string | null {
  let english: Intl.DisplayNames;
  try {
    english = new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return null;
  }
  for (let a = 65; a <= 90; a += 1) {
    for (let b = 65; b <= 90; b += 1) {
      const code = String.fromCharCode(a, b);
      const found = english.of(code);
      if (found && found !== code && found.toLowerCase() === wanted) return code;
    }
  }
  return null;
}

/** The address with its last part, when that is a country's English name, named in `locale` ("Deutschland"). */
export function localizeAddress(address: string, locale: string): string {
  const cut = address.lastIndexOf(',');
  if (cut < 0) return address;
  const region = regionOfEnglishName(address.slice(cut + 1));
  if (!region) return address;
  try {
    const name = new Intl.DisplayNames([locale], { type: 'region' }).of(region);
    return name && name !== region ? `${address.slice(0, cut)}, ${name}` : address;
  } catch {
    return address;
  }
}

/** The requisites with the English "VAT ID" label replaced by `vatLabel` ("USt-IdNr."). */
export function localizeRequisites(requisites: string, vatLabel: string): string {
  return requisites.replace(/\bVAT ID\b/g, vatLabel);
}
