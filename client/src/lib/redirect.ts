/** A path the browser would read as another host: "//host", "/\\host" (backslashes count as slashes). */
const leavesOrigin = (path: string) => /^[/\\]{2}/.test(path);

/**
 * The `redirect` query value is honoured only for same-origin paths: "/x" yes; "//evil.com", "/\\evil",
 * "https://evil.com" or "javascript:" no, so a crafted link cannot send a user elsewhere after login. The
 * check runs again on the normalised path, since dot segments ("/.//evil", "/..//evil", "/%2e%2e//evil")
 * collapse into "//evil" there.
 */
export function safeRedirect(value: string | null | undefined, fallback: string): string {
  if (!value || !value.startsWith('/') || leavesOrigin(value)) return fallback;
  try {
    const base = 'http://same.origin';
    const url = new URL(value, base);
    if (url.origin !== base || leavesOrigin(url.pathname)) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

/** Builds the login URL that brings the user back to `fullPath` after signing in. */
export function loginRedirectPath(fullPath: string): string {
  return `/login?redirect=${encodeURIComponent(fullPath)}`;
}
