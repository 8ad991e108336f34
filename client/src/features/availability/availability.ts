import { JOB_NAMES, type JobName, type ToolStatus } from '@imagestudio/contracts';
import { numberLocale } from '../../lib/format';
import type { Translate } from '../../lib/i18n';

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

/**
 * "Background removal and upscaling work." for the tools that work, in the user's language: each tool's name as
 * it stands mid-sentence (`client-tools.works.<tool>`) joined by the language's own list rule (Intl.ListFormat:
 * "a, b and c", "a, b und c") inside one sentence for one tool or several, whose first letter is then capitalised.
 */
export function worksSentence(t: Translate, tools: readonly JobName[], locale = numberLocale()): string {
  if (tools.length === 0) return t('client-availability.works.none');
  const names = new Intl.ListFormat(locale, { type: 'conjunction' }).format(
    tools.map((tool) => t(`client-tools.works.${tool}`)),
  );
  const sentence = t(tools.length === 1 ? 'client-availability.works.one' : 'client-availability.works.many', {
    tools: names,
  });
  return sentence.charAt(0).toLocaleUpperCase(locale) + sentence.slice(1);
}

/**
 * True when image generation is off while the image tools run (a default install without a generation model):
 * the home page then leads with background removal and upscaling instead of promising prompts.
 */
export function imageToolsOnly(status: ToolStatus | null): boolean {
  return status !== null && !status.generate.available && workingTools(status).length > 0;
}
