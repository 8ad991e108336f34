import { loadConfig, type Config } from '../../config';

/**
 * The app's configuration for a unit test: the real schema and defaults, from `env` only (never the process's
 * environment), so a test states every setting it depends on.
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env });
}
