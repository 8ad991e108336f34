/** What a Google tag id looks like (G-..., GT-..., AW-..., GTM-...); anything else is never loaded. */
const TAG_ID = /^[A-Z]{1,4}-[A-Z0-9]{4,20}$/;

type Gtag = (...args: unknown[]) => void;

/**
 * Loads the Google tag `id` once (gtag.js from googletagmanager.com, allowed by the API's CSP) and
 * configures it. Call only after the visitor accepted cookies. Returns false for an invalid id.
 */
export function loadGoogleTag(id: string, doc: Document = document): boolean {
  if (!TAG_ID.test(id)) return false;
  const scriptId = `google-tag-${id}`;
  if (doc.getElementById(scriptId)) return true;
  const win = doc.defaultView as (Window & { dataLayer?: unknown[]; gtag?: Gtag }) | null;
  if (!win) return false;
  win.dataLayer = win.dataLayer ?? [];
  // gtag.js reads the arguments objects pushed here; defined in code, so no inline script is needed
  win.gtag = function gtag() {
    // eslint-disable-next-line prefer-rest-params
    win.dataLayer!.push(arguments);
  };
  win.gtag('js', new Date());
  win.gtag('config', id);
  const script = doc.createElement('script');
  script.id = scriptId;
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
  doc.head.appendChild(script);
  return true;
}
