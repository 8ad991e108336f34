import type { AdminCommand } from './admin-command-kit';
import { CATALOG_COMMANDS } from './catalog-commands';
import { USER_COMMANDS } from './user-commands';

export { UsageError, type AdminCommand, type AdminDeps } from './admin-command-kit';

/** Every operator command, by "group action" (the help lists them in this order). */
export const ADMIN_COMMANDS: Record<string, AdminCommand> = { ...CATALOG_COMMANDS, ...USER_COMMANDS };
