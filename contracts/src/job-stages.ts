import type { JobName } from './tools';

/**
 * What a running job is doing now, as the worker reports it with each progress update and the client
 * names it on screen. A stage may carry a count of its units (tiles of an upscale, steps of a generation)
 * as "processing 3/12".
 */
export const JOB_STAGES = ['fetching', 'processing', 'encoding', 'saving'] as const;
export type JobStage = (typeof JOB_STAGES)[number];

export interface JobStageReport {
  stage: JobStage;
  done: number | null;
  total: number | null;
}

/** The stage text a worker sends: "encoding", or "processing 3/12" with its units. */
export function formatJobStage(stage: JobStage, done?: number, total?: number): string {
  return done !== undefined && total !== undefined ? `${stage} ${done}/${total}` : stage;
}

/** Reads a stage text back; null for anything unknown (an older worker's stage names). */
export function parseJobStage(text: string | null | undefined): JobStageReport | null {
  const match = /^([a-z]+)(?: (\d+)\/(\d+))?$/.exec(text ?? '');
  if (!match || !(JOB_STAGES as readonly string[]).includes(match[1]!)) return null;
  return {
    stage: match[1] as JobStage,
    done: match[2] !== undefined ? Number(match[2]) : null,
    total: match[3] !== undefined ? Number(match[3]) : null,
  };
}

/** Longest base of a download name, so names stay readable in every file manager. */
const BASE_MAX = 60;

/** The base of a user's file name: no folder, no extension, only characters every file system takes. */
export function fileNameBase(name: string | null | undefined): string {
  const leaf = (name ?? '').split(/[\\/]/).pop() ?? '';
  const base = leaf
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, BASE_MAX)
    .replace(/[-.]+$/, '');
  return base;
}

/**
 * The name a result downloads as, after what went in: "cat-no-background.png", "cat-x4.png", and for
 * generation the prompt's first words ("a-lighthouse-at-dusk-2.png"). The server puts it in the presigned
 * URL's Content-Disposition and the client in the link's download attribute, so both agree.
 */
export function resultDownloadName(
  job: { tool: JobName; input_name: string | null; params: Record<string, unknown> },
  index: number,
  format: string,
): string {
  const ext = format === 'jpeg' ? 'jpg' : format;
  if (job.tool === 'generate') {
    const words =
      fileNameBase(
        String(job.params.prompt ?? '')
          .toLowerCase()
          .split(/\s+/)
          .slice(0, 6)
          .join('-'),
      ) || 'generated';
    return `${words}-${index + 1}.${ext}`;
  }
  const base = fileNameBase(job.input_name) || 'image';
  const suffix = job.tool === 'upscale' ? `x${Number(job.params.factor) || 2}` : 'no-background';
  return `${base}-${suffix}.${ext}`;
}
