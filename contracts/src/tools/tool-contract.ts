import type { z } from 'zod';
import type { SchemaKit } from './schema-kit';

/**
 * What every side knows about one tool: the one definition that the lists of tools (JOB_NAMES, the price
 * settings, the labels, the payload schemas, BATCH_TOOLS) are derived from.
 */
export interface ToolContract {
  /** The BullMQ job name, the `tool` column and the /api/tools/<name> path. */
  name: string;
  /** How server messages name the tool ("Upscaling is not available right now."). */
  label: string;
  /** What the call does, in one line of the API documentation. */
  summary: string;
  /** The strings-table key of the tool's name in the client (every language needs it). */
  labelKey: `client-tools.tool.${string}`;
  /**
   * The site setting holding its price in tokens (per image for a tool that makes several); settings.ts adds
   * it to the settings with a default of 1 token.
   */
  priceSetting: `${string}_price`;
  /** Takes one uploaded image (multipart field `image`); otherwise a JSON body. */
  takesImage: boolean;
  /**
   * Further file parts the tool takes besides the image (background removal's `background_image`): each at
   * most one image, checked like the main one, set to `true` among the fields for `parse`, and stored as a
   * second input of each job (under the field's name in the job's inputs folder), deleted with it.
   */
  fileFields?: readonly string[];
  /** Can run over many images in one batch (POST /api/batches). */
  batchable: boolean;
  /** The models a user can choose, in the order they are offered; workers advertise the ones they run. */
  models?: readonly string[];
  /**
   * A result's download name without its extension, after what went in (resultDownloadName adds the
   * extension): the server's Content-Disposition, the ZIP of a batch and the client's links all use it.
   */
  resultName: (job: { input_name: string | null; params: Record<string, unknown> }, index: number) => string;
  /**
   * Set on tools whose results an AI model made or substantially altered: the worker then signs each result
   * with a C2PA manifest (Content Credentials) naming this action, the IPTC digital source type and the model
   * or backend, plus the input's hash as the parent ingredient for an edit. Tools without it (cut-outs,
   * upscales) keep the XMP DigitalSourceType tag only. See docs/content-credentials.md.
   */
  contentCredentials?: ContentCredentialsDeclaration;
  /**
   * The request's fields (snake_case, as sent) and the queue payload (camelCase, ids and S3 keys only). A
   * function of the kit so that this file needs zod only as a type (see schema-kit.ts).
   */
  schemas: (kit: SchemaKit) => { request: z.ZodObject; payload: z.ZodObject };
}

/** The C2PA action a tool's result records (c2pa.created: a new image; c2pa.edited: an input image changed). */
export type ContentCredentialsAction = 'c2pa.created' | 'c2pa.edited';

/**
 * IPTC digital source types (https://cv.iptc.org/newscodes/digitalsourcetype/) for AI-made media, the same
 * words the XMP tag uses: trainedAlgorithmicMedia for a generated image, compositeWithTrainedAlgorithmicMedia
 * for a photo with AI-made parts.
 */
export type ContentCredentialsSourceType = 'trainedAlgorithmicMedia' | 'compositeWithTrainedAlgorithmicMedia';

export interface ContentCredentialsDeclaration {
  action: ContentCredentialsAction;
  sourceType: ContentCredentialsSourceType;
}
