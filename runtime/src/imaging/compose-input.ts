/**
 * What the composition engine accepts, shared by compose.ts and its steps (decode, background) without an import
 * cycle between them.
 */

/**
 * Why the engine refused an input. Codes, not sentences: the shared runtime says nothing to a customer; each caller
 * words the refusal (the API as a 422 on the field, the worker as the job's failure).
 */
export type ComposeRefusal =
  /** The matte's size differs from the foreground's. */
  | 'matteSize'
  /** The encoded matte could not be decoded. */
  | 'matteUnreadable'
  /** The layout asks for a background image and none came. */
  | 'backgroundImageMissing'
  /** The background image could not be decoded. */
  | 'backgroundImageUnreadable'
  /** A raw foreground with one channel (greyscale). */
  | 'foregroundNotColour'
  /** The encoded foreground could not be decoded. */
  | 'foregroundUnreadable';

/** Thrown for inputs the engine cannot use (the caller maps its code to a 422 or an UnrecoverableError). */
export class ComposeInputError extends Error {
  constructor(readonly code: ComposeRefusal) {
    super(`The composition engine refused its input: ${code}.`);
  }
}

/** The most pixels an encoded input may decode to (the upload limit's 25 MP, with room). */
export const MAX_INPUT_PIXELS = 8192 * 8192;
