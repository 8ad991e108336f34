import pino, { type Logger } from 'pino';

/** The API process's one logger; modules take a child with their `component`. */
export function createLogger(level: string, component = 'api'): Logger {
  return pino({ level, base: { component }, redact: ['req.headers.cookie', 'req.headers.authorization'] });
}

export type { Logger };
