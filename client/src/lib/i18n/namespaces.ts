import { clientAdmin } from './messages/client-admin';
import { clientAvailability } from './messages/client-availability';
import { clientDeveloper } from './messages/client-developer';
import { clientPayments } from './messages/client-payments';
import { clientTools } from './messages/client-tools';
import { clientToolsShared } from './messages/client-tools-shared';
import { clientToolsEditor } from './messages/client-tools-editor';
import { shell } from './messages/shell';
import { TOOL_TEXTS } from '../../config/tools';

/** Namespace name -> all of its English texts (the seed consistency test; tests' English fallback). */
export const namespaces = {
  shell,
  'client-payments': clientPayments,
  'client-tools': { ...clientToolsShared, ...clientTools, ...clientToolsEditor, ...TOOL_TEXTS },
  'client-availability': clientAvailability,
  'client-developer': clientDeveloper,
  'client-admin': clientAdmin,
} as const;
