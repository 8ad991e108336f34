import { JOB_NAMES, toolContract, type JobName, type ToolStatus } from '@imagestudio/contracts';

/**
 * A GET /api/tools/status reply built from the tool registry, so a new tool needs no change in the tests: every
 * tool runs on the CPU with the first of its models (if it has any) unless `off` names it or `models` says which
 * models its workers advertise.
 */
export function toolStatusFixture(
  options: { off?: readonly JobName[]; models?: Partial<Record<JobName, string[]>> } = {},
): ToolStatus {
  const { off = [], models = {} } = options;
  return Object.fromEntries(
    JOB_NAMES.map((tool) => [
      tool,
      off.includes(tool)
        ? { available: false, provider: null, models: [] }
        : { available: true, provider: 'cpu', models: models[tool] ?? (toolContract(tool).models ?? []).slice(0, 1) },
    ]),
  ) as ToolStatus;
}
