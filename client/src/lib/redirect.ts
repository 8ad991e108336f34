/**
 * The `redirect` query value is honoured only for same-origin paths: "/x" yes; "//evil.com", "/\\evil",
 * "https://evil.com" or "javascript:" no, so a crafted link cannot send a user elsewhere after login.
 */
export function safeRedirect(value: string | null | undefined, fallback: string): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  try {
    const base = 'http://same.origin';
    const url = new URL(value, base);
    if (url.origin !== base) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

/** Builds the login URL that brings the user back to `fullPath` after signing in. */
export function loginRedirectPath(fullPath: string): string {
  return `/login?redirect=${encodeURIComponent(fullPath)}`;
}
