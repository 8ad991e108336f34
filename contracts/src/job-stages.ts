import { toolContract, type JobName } from './tools';

export { asciiFileName, fileNameBase } from './file-names';

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
  return `${toolContract(job.tool).resultName(job, index)}.${ext}`;
}

/**
 * The name a kept composition (a picture made in the editor or by POST /api/jobs/{id}/compose) downloads as: its
 * job's result name with the picture's size, "cat-no-background-2000x2000.jpg", so the pictures of one photo keep
 * apart in a downloads folder. The server's Content-Disposition and the lists' download attribute both use it.
 */
export function compositionDownloadName(
  job: { tool: JobName; input_name: string | null; params: Record<string, unknown> },
  picture: { width: number; height: number; format: string },
): string {
  const ext = picture.format === 'jpeg' ? 'jpg' : picture.format;
  return `${toolContract(job.tool).resultName(job, 0)}-${picture.width}x${picture.height}.${ext}`;
}
