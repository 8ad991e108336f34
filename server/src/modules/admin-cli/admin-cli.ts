import { parseArgs } from 'node:util';
import { AppError } from '../../lib/errors';
import type { Logger } from '@imagestudio/runtime';
import { ADMIN_COMMANDS, UsageError, type AdminDeps } from './admin-commands';
import { insertAudit } from './admin.repository';
import { createCatalogCache } from '../catalog';
import type { Config } from '../../config';
import type { Db } from '../../lib/db';

/** What the CLI is given: its own pool, the catalog settings, the operator's name and where to print. */
export interface AdminCliOptions {
  db: Db;
  config: Pick<Config, 'CATALOG_CACHE_CHECK_MS'>;
  logger: Logger;
  operator: string;
  print: (line: string) => void;
}

/** The usage text: every command on one line. */
export function adminUsage(): string {
  return ['usage: npm run admin -- <command>', '', ...Object.values(ADMIN_COMMANDS).map((c) => `  ${c.usage}`)].join(
    '\n',
  );
}

/**
 * Runs one operator command (`npm run admin -- settings set vat_percent 19`) and returns the exit code:
 * 0 done, 1 refused by validation (nothing changed), 2 bad arguments (usage printed, nothing changed).
 * Every successful change is written to operator_audit_log and to the log.
 */
export async function runAdminCommand(argv: string[], options: AdminCliOptions): Promise<number> {
  const deps: AdminDeps & AdminCliOptions = {
    ...options,
    services: { catalog: createCatalogCache(options.db, options.config) },
  };
  const name = argv.slice(0, 2).join(' ');
  const command = ADMIN_COMMANDS[name];
  if (!command) {
    deps.print(argv.length > 0 ? `unknown command "${name}"\n\n${adminUsage()}` : adminUsage());
    return 2;
  }
  let args;
  try {
    const parsed = parseArgs({
      args: argv.slice(2),
      options: command.options ?? {},
      allowPositionals: true,
      strict: true,
    });
    args = { positionals: parsed.positionals, options: parsed.values as Record<string, string | boolean | undefined> };
    const [min, max] = command.positionals;
    if (args.positionals.length < min || args.positionals.length > max)
      throw new UsageError('wrong number of arguments');
  } catch (err) {
    deps.print(`${(err as Error).message}\nusage: npm run admin -- ${command.usage}`);
    return 2;
  }
  try {
    const details = await command.run(deps, args);
    if (command.changes) {
      await insertAudit(deps.db, { operator: deps.operator, command: name, details: details ?? {} });
      deps.logger.info({ component: 'admin', operator: deps.operator, command: name, details }, 'operator change');
    }
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      deps.print(`${err.message}\nusage: npm run admin -- ${command.usage}`);
      return 2;
    }
    if (err instanceof AppError) {
      const fields = Object.entries(err.errors ?? {}).map(([field, messages]) => `  ${field}: ${messages.join('; ')}`);
      deps.print([`refused: ${err.message}`, ...fields].join('\n'));
      return 1;
    }
    throw err;
  }
}
