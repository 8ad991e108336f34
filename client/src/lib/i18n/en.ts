import { clientAvailability } from './messages/client-availability';
import { clientDeveloper } from './messages/client-developer';
import { clientPayments } from './messages/client-payments';
import { clientTools } from './messages/client-tools';
import { shell } from './messages/shell';

/**
 * English texts of every client namespace: the fallback for every key. The server's localizations for the
 * chosen language are merged over these. A namespace <ns> lives in messages/<ns>.ts with the same keys in
 * migrations/seeds/strings/<ns>.json (English and German); add new namespaces here.
 */
export const en = {
  ...shell,
  ...clientTools,
  ...clientPayments,
  ...clientAvailability,
  ...clientDeveloper,
} as const;

/** Namespace name -> its English texts, for the seed consistency test. */
export const namespaces = {
  shell,
  'client-payments': clientPayments,
  'client-tools': clientTools,
  'client-availability': clientAvailability,
  'client-developer': clientDeveloper,
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<string, string>;
