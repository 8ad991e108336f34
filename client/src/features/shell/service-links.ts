import { JOB_NAMES, type JobName } from '@imagestudio/contracts';
import { SERVICE_LABELS, TOOL_PAGES } from '../../config/paths';
import type { MessageKey } from '../../lib/i18n';
import { loginRedirectPath } from '../../lib/redirect';

/** The three services; signed-in users go to the tool, guests to Login (coming back to the tool). */
export function serviceLinks(signedIn: boolean): Array<{ tool: JobName; key: MessageKey; to: string }> {
  return JOB_NAMES.map((tool) => ({
    tool,
    key: SERVICE_LABELS[tool],
    to: signedIn ? TOOL_PAGES[tool] : loginRedirectPath(TOOL_PAGES[tool]),
  }));
}
