import { JOB_NAMES, type JobName } from '@imagestudio/contracts';
import { menuLabel, TOOLS } from '../../config/tools';
import type { MessageKey } from '../../lib/i18n';
import { loginRedirectPath } from '../../lib/redirect';

/** One link per tool; signed-in users go to the tool, guests to Login (coming back to the tool). */
export function serviceLinks(signedIn: boolean): Array<{ tool: JobName; key: MessageKey; to: string }> {
  return JOB_NAMES.map((tool) => ({
    tool,
    key: menuLabel(tool),
    to: signedIn ? TOOLS[tool].path : loginRedirectPath(TOOLS[tool].path),
  }));
}
