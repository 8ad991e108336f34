import { JOB_NAMES } from '@imagestudio/contracts';
import { loadGenerateTool } from './generate/generate';
import { TOOL_LOADERS, loadTools } from './index';
import { loadRemoveBackgroundTool } from './remove-background';
import type { Tool, ToolDeps, ToolLoaders } from './types';

/**
 * Never called: `npm run typecheck` (tsc -b, which checks the tests) fails when a line marked @ts-expect-error
 * compiles. The handler map is typed from contracts' JobPayloads: each job name's tool takes that name's payload.
 */
export function wrongToolsDoNotCompile(generate: Tool<'generate'>): unknown[] {
  return [
    // @ts-expect-error generate's loader registered for upscale: its tool would get upscale payloads
    { ...TOOL_LOADERS, upscale: loadGenerateTool } satisfies ToolLoaders,
    // @ts-expect-error a job name of the contract without its loader
    { generate: loadGenerateTool, 'remove-background': loadRemoveBackgroundTool } satisfies ToolLoaders,
    // @ts-expect-error a tool of one job name is no tool of another
    generate satisfies Tool<'remove-background'>,
  ];
}

describe('the job handler map', () => {
  it('covers exactly the contract job names', () => {
    expect(Object.keys(TOOL_LOADERS).sort()).toEqual([...JOB_NAMES].sort());
  });

  it('refuses to start from a map that misses a job name', async () => {
    const { upscale: _, ...partial } = TOOL_LOADERS;
    // The check comes before any loader runs, so it needs none of the deps.
    // The lists follow the registry, so another tool changes nothing here.
    const contract = [...JOB_NAMES].sort();
    const has = contract.filter((name) => name !== 'upscale');
    await expect(loadTools(partial as ToolLoaders, {} as ToolDeps)).rejects.toThrow(
      `job handler map does not match the contract: has [${has.join()}], contract has [${contract.join()}]`,
    );
  });
});
