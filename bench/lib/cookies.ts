/** Cookies from a response's Set-Cookie lines merged over the cookies already held (mutates and returns `held`). */
export function mergeCookies(held: Map<string, string>, res: Response): Map<string, string> {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = (pair ?? '').indexOf('=');
    if (eq > 0) held.set(pair!.slice(0, eq), pair!.slice(eq + 1));
  }
  return held;
}

/** The Cookie request header for the cookies held. */
export const cookieString = (held: Map<string, string>): string => [...held].map(([k, v]) => `${k}=${v}`).join('; ');
