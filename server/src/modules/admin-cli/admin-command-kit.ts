import type { CatalogDeps } from '../catalog';

/** What every operator command shares: its deps and arguments, its shape, and how it refuses arguments. */

/** What a command receives: catalog deps plus where to print. */
export interface AdminDeps extends CatalogDeps {
  print: (line: string) => void;
}

/** Parsed arguments: positionals and --options (strings or booleans). */
export interface AdminArgs {
  positionals: string[];
  options: Record<string, string | boolean | undefined>;
}

/** One command: its usage line, options, number of positionals, and whether it changes data (audited). */
export interface AdminCommand {
  usage: string;
  options?: Record<string, { type: 'string' | 'boolean' }>;
  positionals: [number, number];
  changes: boolean;
  run(deps: AdminDeps, args: AdminArgs): Promise<Record<string, unknown> | void>;
}

/** Thrown for arguments that parse but make no sense: the CLI prints usage and changes nothing. */
export class UsageError extends Error {}

/** A string option's value; undefined for a flag or a missing option. */
export const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
