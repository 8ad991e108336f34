import type { ComposeSourcesView, JobView } from '@imagestudio/contracts';

/**
 * The job's compose sources (the decontaminated foreground as an opaque image and the matte as greyscale, full
 * size): null when it has none (a job from before they were stored, or files gone), undefined when the view does
 * not carry the field at all (a live progress report: read the job again).
 */
export function composeSourcesOf(job: JobView): ComposeSourcesView | null | undefined {
  const sources = job.compose_sources;
  if (sources === undefined) return undefined;
  return sources && sources.width > 0 && sources.height > 0 ? sources : null;
}
