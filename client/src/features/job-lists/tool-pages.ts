import type { JobName } from '@imagestudio/contracts';
import { paths } from '../../config/paths';

/** The page each tool's jobs open on (`?job=<id>` shows that job). */
export const TOOL_PAGES: Record<JobName, string> = {
  generate: paths.services.generateImage,
  'remove-background': paths.services.removeBackground,
  upscale: paths.services.upscale,
};
