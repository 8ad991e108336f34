import { PRODUCT_PHOTO_MESSAGES } from '@imagestudio/contracts';
import type { ComposeProvenance, ComposeRefusal } from '@imagestudio/runtime/imaging';

/** What a background removal's picture says made it (its XMP provenance). */
export const BACKGROUND_REMOVAL_PROVENANCE: ComposeProvenance = {
  source: 'compositeWithTrainedAlgorithmicMedia',
  tool: 'Image Studio background removal',
};

/**
 * The job's failure message for each of the composition engine's refusals. Only the background image's can
 * happen in a job (the worker hands the engine its own decoded pixels and matte); the rest are worded anyway.
 */
export const COMPOSE_REFUSAL_MESSAGES: Record<ComposeRefusal, string> = {
  matteSize: PRODUCT_PHOTO_MESSAGES.matteSize,
  matteUnreadable: PRODUCT_PHOTO_MESSAGES.matteUnreadable,
  backgroundImageMissing: PRODUCT_PHOTO_MESSAGES.backgroundImageMissing,
  backgroundImageUnreadable: PRODUCT_PHOTO_MESSAGES.backgroundImageUnreadable,
  foregroundNotColour: 'The image must be in colour.',
  foregroundUnreadable: 'The image could not be read.',
};
