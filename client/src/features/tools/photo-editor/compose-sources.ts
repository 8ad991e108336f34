import type { JobView } from '@imagestudio/contracts';

/**
 * What a succeeded remove-background job's view offers for re-composition (`compose_sources`): the
 * decontaminated foreground as an opaque image and the matte as a greyscale PNG, full size, readable by the owner.
 */
export interface ComposeSources {
  foreground_url: string;
  matte_url: string;
  width: number;
  height: number;
}

/** The answer of `POST /api/jobs/{id}/compose`. */
export interface Composition {
  url: string;
  width: number;
  height: number;
  format: string;
  subject_box: { left: number; top: number; width: number; height: number } | null;
}

/**
 * The job's compose sources: null when it has none (a job from before they were stored, or a mask-only run),
 * undefined when the view does not carry the field at all (a live progress report: read the job again).
 */
export function composeSourcesOf(job: JobView): ComposeSources | null | undefined {
  const value: unknown = (job as JobView & { compose_sources?: unknown }).compose_sources;
  if (value === undefined) return undefined;
  if (!value || typeof value !== 'object') return null;
  const s = value as Record<string, unknown>;
  const ok =
    typeof s.foreground_url === 'string' &&
    typeof s.matte_url === 'string' &&
    typeof s.width === 'number' &&
    typeof s.height === 'number' &&
    s.width > 0 &&
    s.height > 0;
  return ok ? (s as unknown as ComposeSources) : null;
}
