import type { JobName } from '@imagestudio/contracts';
import { aiBackgroundEntry } from '../features/tools/ai-background/ai-background.entry';
import { eraseEntry } from '../features/tools/erase/erase.entry';
import { expandEntry } from '../features/tools/expand/expand.entry';
import { generateEntry } from '../features/tools/generate/generate.entry';
import { removeBackgroundEntry } from '../features/tools/remove-background/remove-background.entry';
import type { ToolEntry } from '../features/tools/tool-entry';
import { upscaleEntry } from '../features/tools/upscale/upscale.entry';

/**
 * Every tool the client offers, keyed by its job name (`JOB_NAMES` in contracts): each entry lives in its tool's
 * folder (features/tools/<name>/<name>.entry.ts), and the routes, the Services menu, the availability texts, the
 * console's labels, the runs and the landing pages all read this table, so a new job name makes TypeScript ask
 * for exactly one entry here. Lists of tools keep the order of `JOB_NAMES`.
 */
export const TOOLS = {
  generate: generateEntry,
  'remove-background': removeBackgroundEntry,
  upscale: upscaleEntry,
  'ai-background': aiBackgroundEntry,
  erase: eraseEntry,
  expand: expandEntry,
} as const satisfies { [N in JobName]: ToolEntry<N> };

/** Every key of the tools' own English texts (part of the client's message keys). */
export type ToolMessageKey = { [N in JobName]: keyof (typeof TOOLS)[N]['text'] }[JobName];

/** The English texts of every tool, in the "client-tools" namespace. */
export const TOOL_TEXTS = Object.assign({}, ...Object.values(TOOLS).map((entry) => entry.text)) as {
  [K in ToolMessageKey]: string;
};

/** The tool's name in the Services menu and on its "switched off" page. */
export const menuLabel = <N extends JobName>(tool: N) => `client-tools.menu.${tool}` as const;

/** One value per name of `names` (all tools, or the batch tools), in their order. */
export function byTool<N extends JobName, T>(names: readonly N[], make: (tool: N) => T): Record<N, T> {
  return Object.fromEntries(names.map((tool) => [tool, make(tool)])) as Record<N, T>;
}

export type { ToolEntry };
