import { JOB_NAMES } from '@imagestudio/contracts';
import { InferenceRequireGpuError } from '../inference';
import type { LoadedTools, ToolDeps, ToolLoader, ToolLoaders } from './types';
import { isUnavailable } from './types';
import { loadAiBackgroundTool } from './ai-background';
import { loadExpandTool } from './expand';
import { loadEraseTool } from './erase';
import { loadGenerateTool } from './generate/generate';
import { loadRemoveBackgroundTool } from './remove-background';
import { loadUpscaleTool } from './upscale';

/**
 * Job name -> loader, exhaustive by type. A loader whose model is missing answers `{ unavailable }`, and its
 * jobs fail with "not available", never a fake result.
 */
export const TOOL_LOADERS: ToolLoaders = {
  generate: loadGenerateTool,
  'remove-background': loadRemoveBackgroundTool,
  upscale: loadUpscaleTool,
  'ai-background': loadAiBackgroundTool,
  expand: loadExpandTool,
  erase: loadEraseTool,
};

/** Runs every loader of a tool in WORKER_TOOLS (all by default) once at start; checks the map covers exactly the contract's job names. */
export async function loadTools(loaders: ToolLoaders, deps: ToolDeps): Promise<LoadedTools> {
  const names = Object.keys(loaders).sort();
  const expected = [...JOB_NAMES].sort();
  if (names.join() !== expected.join()) {
    throw new Error(`job handler map does not match the contract: has [${names}], contract has [${expected}]`);
  }
  const loaded = {} as Record<string, unknown>;
  for (const name of JOB_NAMES) {
    const loader = loaders[name] as ToolLoader<typeof name>;
    let tool;
    try {
      const offered = !deps.config.WORKER_TOOLS || deps.config.WORKER_TOOLS.includes(name);
      tool = offered ? await loader(deps) : { unavailable: 'not in WORKER_TOOLS' };
    } catch (err) {
      // A GPU requirement is a start-up failure, not a missing tool.
      if (err instanceof InferenceRequireGpuError) throw err;
      tool = { unavailable: `failed to load: ${(err as Error).message}` };
    }
    if (isUnavailable(tool)) deps.logger.warn({ tool: name, reason: tool.unavailable }, 'tool not available');
    else deps.logger.info({ tool: name, provider: tool.provider }, 'tool ready');
    loaded[name] = tool;
  }
  return loaded as LoadedTools;
}
