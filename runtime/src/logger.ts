import pino, { type Logger } from 'pino';

/**
 * The one logger of a process (API or worker); modules take a child with their own `component`. Cookies and
 * authorization headers never reach the log, whichever process logs a request.
 */
export function createLogger(level: string, component: string): Logger {
  return pino({ level, base: { component }, redact: ['req.headers.cookie', 'req.headers.authorization'] });
}

export type { Logger };
