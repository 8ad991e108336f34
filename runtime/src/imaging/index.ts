/**
 * `@imagestudio/runtime/imaging`: image work the API and the worker share, kept out of the runtime's main entry
 * so that only the code that imports this loads sharp: the product-photo composition engine (docs/product-photos.md),
 * the result encoder, the list previews (thumbnails) of results and the provenance metadata every result file carries.
 */
export {
  composeProductPhoto,
  ComposeInputError,
  type ComposeInput,
  type ComposeProvenance,
  type ComposeRefusal,
  type ComposeResult,
} from './compose';
// The pure geometry lives in contracts (the browser editor's preview uses it too); re-exported for the engine's users.
export { planLayout, mapBox, type LayoutPlan } from '@imagestudio/contracts';
export {
  findSubjectBox,
  SUBJECT_ALPHA_THRESHOLD,
  SUBJECT_SPECK_REACH,
  SUBJECT_SPECK_SHARE,
  type Box,
  type Matte,
} from './subject-box';
export {
  encodeRaw,
  DEFAULT_QUALITY,
  ENCODE_CONTENT_TYPES,
  type EncodeFormat,
  type EncodeOptions,
  type RawImage,
} from './encode';
export { provenanceXmp, type DigitalSourceType } from './provenance';
export { insertPngXmp, pngChunks } from './png-xmp';
export { insertPngIcc, keepsRgbProfile } from './icc';
export { decodeHeic, HeicDecodeError } from './heic';
export { makeThumbnail, THUMBNAIL_SIDE } from './thumbnail';
