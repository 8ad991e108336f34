import { JOB_NAMES, type JobName, type ToolStatus } from '@imagestudio/contracts';
import type { MessageKey } from '../../lib/i18n';

/**
 * How often an open tool page asks GET /api/tools/status again: a worker's heartbeat lives 15 s, so a worker
 * that comes or goes shows within about this plus that.
 */
export const STATUS_REFRESH_MS = 10_000;

/** The tools that can run now, in the Services menu's order; none while the status is unknown. */
export function workingTools(status: ToolStatus | null): JobName[] {
  return status ? JOB_NAMES.filter((tool) => status[tool].available) : [];
}

/**
 * Where "Start creating", "Go to Services" and /services lead: the first tool that can run, or the first tool
 * at all when none can (or the status is unknown: the page then says what it knows).
 */
export function firstAvailableTool(status: ToolStatus | null): JobName {
  return workingTools(status)[0] ?? JOB_NAMES[0];
}

/** "Background removal and upscaling work." for the tools that work, in the user's language. */
export function worksKey(tools: readonly JobName[]): MessageKey {
  return (
    tools.length === 0 ? 'client-availability.works.none' : `client-availability.works.${tools.join('+')}`
  ) as MessageKey;
}

/**
 * True when image generation is off while the image tools run (a default install without a generation model):
 * the home page then leads with background removal and upscaling instead of promising prompts.
 */
export function imageToolsOnly(status: ToolStatus | null): boolean {
  return status !== null && !status.generate.available && workingTools(status).length > 0;
}
