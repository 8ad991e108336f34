/** What other modules may use of uploads; everything else in this folder is internal. */
export {
  checkImageHeader,
  checkUpscaleOutput,
  type CleanImage,
  type ImageFacts,
  inspectUpload,
  UPLOAD_MESSAGES,
} from './image-inspect';
export { readEncodedBody } from './encoded-body';
export { decodeBase64, isDecodedBase64 } from './encoded-body-parse';
export { makeInputPreview, needsInputPreview } from './input-preview';
export { MULTIPART_MESSAGES, readForm, readMultipart, type ReceivedFile } from './multipart';
export { UPLOAD_MESSAGES_FLOW, type UploadBudget, type UploadSession } from './upload-budget';
export { admitUpload, uploadSessionOf } from './upload-admission';
export { createUploadBudget } from './upload-budget-setup';
export { inspectFilePart, inspectFileParts, withFileFlags } from './file-fields';
