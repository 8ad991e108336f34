/**
 * Client settings fixed at build time (vite.config.mts defines __APP_ENV__ from CLIENT_* variables),
 * checked once at start so a bad build fails loudly instead of misbehaving later.
 */
declare const __APP_ENV__: Record<string, string | undefined> | undefined;

export interface ClientEnv {
  /** Base path of every API call. */
  apiBaseUrl: string;
}

/** Validates the raw settings; throws one message naming every bad value. */
export function parseEnv(raw: Record<string, string | undefined>): ClientEnv {
  const apiBaseUrl = raw.API_BASE_URL ?? '/api';
  const problems: string[] = [];
  if (!/^(\/|https?:\/\/)/.test(apiBaseUrl))
    problems.push(`API_BASE_URL must be a path or an http(s) URL: "${apiBaseUrl}"`);
  if (problems.length) throw new Error(problems.join('; '));
  return { apiBaseUrl: apiBaseUrl.replace(/\/$/, '') };
}

export const env: ClientEnv = parseEnv(typeof __APP_ENV__ === 'undefined' ? {} : __APP_ENV__);
