import pino, { type Logger } from 'pino';

/** The worker process's one logger; modules take a child with their own `component`. */
export function createLogger(level: string, component = 'worker'): Logger {
  return pino({ level, base: { component } });
}

export type { Logger };
