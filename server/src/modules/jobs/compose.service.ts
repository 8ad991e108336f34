import { randomUUID } from 'node:crypto';
import {
  PRODUCT_PHOTO_MESSAGES,
  productPhotoRequestSchema,
  removeBackgroundTool,
  type ComposeSources,
  type CompositionView,
  type ProductPhotoLayout,
} from '@imagestudio/contracts';
import { compositionsPrefix } from '@imagestudio/runtime';
import {
  ComposeInputError,
  composeProductPhoto,
  type ComposeInput,
  type ComposeProvenance,
  type ComposeRefusal,
  type ComposeResult,
} from '@imagestudio/runtime/imaging';
import type { AppContext } from '../../context';
import { validationError } from '../../lib/errors';
import { checkImageHeader, inspectFilePart, withFileFlags } from '../uploads';
import { assertComposeCanvas, composeMegapixels, withinComposeBudget } from './compose-budget';
import { canCompose, presentCompositions } from './job-presenter';
import { keepComposition } from './composition-keep';
import { jobOwner } from './finalize.service';
import { jobNotFound, ownedJob } from './jobs.service';
import * as repo from './jobs.repository';

/** What a re-composition request carries: the option fields and the files that came, by field. */
export interface ComposeRequest {
  fields: unknown;
  files: Record<string, Buffer>;
}

/** The file fields of a re-composition: the tool's own (a background image) and an edited matte. */
export const COMPOSE_FILE_FIELDS = [...removeBackgroundTool.fileFields, 'matte'] as const;

const EXTENSIONS = { png: 'png', webp: 'webp', avif: 'avif', jpeg: 'jpg' } as const;

/** An edited matte: checked like an upload (signature, damage, bombs), a PNG, the size of the stored cut-out. */
async function checkMatte(bytes: Buffer, sources: ComposeSources): Promise<Buffer> {
  let facts;
  try {
    facts = await checkImageHeader(bytes);
  } catch (err) {
    const first = (err as { errors?: Record<string, string[]> }).errors?.image;
    throw first ? validationError({ matte: first }) : err;
  }
  if (facts.format !== 'png') throw validationError({ matte: [PRODUCT_PHOTO_MESSAGES.matteFormat] });
  if (facts.width !== sources.width || facts.height !== sources.height)
    throw validationError({ matte: [PRODUCT_PHOTO_MESSAGES.matteSize] });
  return bytes;
}

/** The field each of the engine's refusals of a request's file is about, and what it is told. */
const REFUSED_FIELDS: Partial<Record<ComposeRefusal, { field: string; message: string }>> = {
  matteSize: { field: 'matte', message: PRODUCT_PHOTO_MESSAGES.matteSize },
  matteUnreadable: { field: 'matte', message: PRODUCT_PHOTO_MESSAGES.matteUnreadable },
  backgroundImageMissing: { field: 'background_image', message: PRODUCT_PHOTO_MESSAGES.backgroundImageMissing },
  backgroundImageUnreadable: { field: 'background_image', message: PRODUCT_PHOTO_MESSAGES.backgroundImageUnreadable },
};

/** A 422 on the field an engine refusal names; anything else (a stored file it cannot read) stays a 500. */
function composeRefusal(err: ComposeInputError): Error {
  const refused = REFUSED_FIELDS[err.code];
  return refused ? validationError({ [refused.field]: [refused.message] }) : err;
}

/** A re-composed picture says what made it like the worker's original does (its XMP provenance). */
const RECOMPOSITION_PROVENANCE: ComposeProvenance = {
  source: 'compositeWithTrainedAlgorithmicMedia',
  tool: 'Image Studio background removal',
};

/** A re-composition's request, read and checked: the owner's job, its stored sources, the layout and the files. */
export interface CheckedCompose {
  row: repo.JobRow;
  sources: ComposeSources;
  /** The option fields as sent, with the file flags set (`background_image: true` when that file came). */
  fields: Record<string, unknown>;
  layout: ProductPhotoLayout;
  backgroundImage: Buffer | undefined;
  /** The edited matte when one came (checked), else undefined: the stored one is used. */
  editedMatte: Buffer | undefined;
}

/**
 * Everything compose and its preview (compose-preview.service.ts) check before rendering, in this order: the
 * owner's succeeded background removal with its files (404 otherwise), the fields and the canvas (422), the
 * background image like an upload, the edited matte.
 */
export async function readComposeRequest(
  ctx: AppContext,
  userId: string,
  jobId: string,
  request: ComposeRequest,
): Promise<CheckedCompose> {
  const row = await ownedJob(ctx, userId, jobId);
  const sources = row.result?.sources;
  if (!canCompose(row) || !sources) throw jobNotFound();
  const fields = withFileFlags(request.fields, removeBackgroundTool.fileFields, Object.keys(request.files));
  const layout = productPhotoRequestSchema.parse(fields);
  assertComposeCanvas(layout, sources);
  const backgroundFile = request.files.background_image;
  const backgroundImage = backgroundFile
    ? (await inspectFilePart('background_image', backgroundFile)).bytes
    : undefined;
  const editedMatte = request.files.matte ? await checkMatte(request.files.matte, sources) : undefined;
  return { row, sources, fields, layout, backgroundImage, editedMatte };
}

/** The stored foreground, and the matte: the edited one when it came, else the stored one. */
export async function readComposeSources(
  ctx: AppContext,
  checked: CheckedCompose,
): Promise<{ foreground: Buffer; matte: Buffer }> {
  const [foreground, matte] = await Promise.all([
    ctx.storage.get(checked.sources.foregroundKey),
    checked.editedMatte ?? ctx.storage.get(checked.sources.matteKey),
  ]);
  return { foreground, matte };
}

/** The engine on a re-composition's inputs: its refusals of the request's files become 422s on their fields. */
export function renderComposition(input: Omit<ComposeInput, 'provenance'>): Promise<ComposeResult> {
  return composeProductPhoto({ ...input, provenance: RECOMPOSITION_PROVENANCE }).catch((err: unknown) => {
    throw err instanceof ComposeInputError ? composeRefusal(err) : err;
  });
}

/**
 * POST /api/jobs/{id}/compose: renders the owner's succeeded background removal again from its stored
 * foreground and matte, with new layout, background, shadow and format options, free of charge (no ledger row).
 * Another user's job, and any job that is not a succeeded background removal with its files, is a 404; a bad
 * option or file a 422 naming the field. The engine runs in this process, on sharp's thread pool (every pixel
 * step is a libvips call but the subject box's one pass over the matte, ~35 ms at the largest input), so the event
 * loop stays free; the canvas, the customer's hourly work and stored bytes, and the renders at once are bounded
 * (compose-budget.ts). The picture is stored under the job's results prefix (same retention and deletion) and
 * listed in the job view's `compositions`; a job deleted while it rendered gets no picture (404).
 */
export async function composeJob(
  ctx: AppContext,
  userId: string,
  jobId: string,
  request: ComposeRequest,
): Promise<CompositionView> {
  const checked = await readComposeRequest(ctx, userId, jobId, request);
  const { row, sources, layout, backgroundImage } = checked;
  const picture = await withinComposeBudget(ctx, userId, composeMegapixels(layout, sources), async () =>
    renderComposition({ ...(await readComposeSources(ctx, checked)), backgroundImage, layout, opaque: true }),
  );

  const key = `${compositionsPrefix(jobOwner(row))}${randomUUID()}.${EXTENSIONS[picture.format]}`;
  await ctx.storage.put(key, picture.data, picture.contentType);
  const composition: repo.StoredComposition = {
    key,
    width: picture.width,
    height: picture.height,
    format: picture.format,
    bytes: picture.data.length,
    subject_box: picture.subjectBox,
    created_at: new Date().toISOString(),
    ...(await keepComposition(ctx, key, picture.data, checked)),
  };
  if (!(await repo.appendComposition(ctx.db, row.id, composition))) {
    await ctx.storage.deletePrefix(key).catch(() => undefined);
    throw jobNotFound();
  }
  const [view] = await presentCompositions(ctx, { ...row, compositions: [composition] });
  return view!;
}
