import type { clientAdmin } from './messages/client-admin';
import { clientAvailability } from './messages/client-availability';
import type { clientDeveloper } from './messages/client-developer';
import type { clientPayments } from './messages/client-payments';
import type { clientTools } from './messages/client-tools';
import type { clientToolsEditor } from './messages/client-tools-editor';
import { clientToolsShared } from './messages/client-tools-shared';
import { shell } from './messages/shell';
import { TOOL_TEXTS, type ToolMessageKey } from '../../config/tools';

/** Every key of every client namespace. */
export type MessageKey =
  | keyof typeof shell
  | keyof typeof clientToolsShared
  | keyof typeof clientTools
  | keyof typeof clientToolsEditor
  | keyof typeof clientPayments
  | keyof typeof clientAvailability
  | keyof typeof clientDeveloper
  | keyof typeof clientAdmin
  | ToolMessageKey;
export type Messages = Record<string, string>;

/**
 * The English fallback for every key; the server's strings for the chosen language (English included, from
 * migrations/seeds/strings/<ns>.json) are merged over it. Only what the first paint shows is bundled with the
 * app (the shell, the home page, availability marks): the tool, payment and developer namespaces arrive with the
 * pages that use them, which add them with addEnglish (see features/<page>/index.ts), so the home page does
 * not download them (client/package.json marks those index modules as having side effects, so the bundler keeps
 * the calls). A namespace <ns> lives in messages/<ns>.ts with the same keys in the seed. Each tool's own texts
 * (its names, landing page and page) come with its entry in config/tools.ts, which the Services menu needs anyway.
 */
export const en: Partial<Record<MessageKey, string>> = {
  ...shell,
  ...clientToolsShared,
  ...clientAvailability,
  ...TOOL_TEXTS,
};

/** Adds a namespace's English texts to the fallback (called when the page chunk that uses them loads). */
export function addEnglish(texts: Partial<Record<MessageKey, string>>): void {
  Object.assign(en, texts);
}
