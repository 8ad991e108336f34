/**
 * What the composition engine accepts, shared by compose.ts and the background code (background.ts) without an
 * import cycle between them.
 */

/** Thrown for inputs the engine cannot use (the caller maps it to a 422 or an UnrecoverableError). */
export class ComposeInputError extends Error {}

/** The most pixels an encoded input may decode to (the upload limit's 25 MP, with room). */
export const MAX_INPUT_PIXELS = 8192 * 8192;
