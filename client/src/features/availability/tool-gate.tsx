import type { ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { useSearchParams } from 'react-router';
import type { JobName } from '@imagestudio/contracts';
import { useStore } from '../../stores';
import { ToolUnavailable } from './tool-unavailable';
import { useStatusRefresh } from './use-status-refresh';

/**
 * Wraps a tool page: keeps the tool status fresh while it is open and, when no live worker offers the tool,
 * shows why instead of a form that cannot run. A page showing a job (`?job=`, from My Projects or a run
 * started before the worker left) stays as it is, so its result or outcome is never hidden.
 */
export const ToolGate = observer(function ToolGate({ tool, children }: { tool: JobName; children: ReactNode }) {
  const { tools } = useStore();
  const [params] = useSearchParams();
  useStatusRefresh();
  if (tools.available(tool) === false && !params.get('job')) return <ToolUnavailable tool={tool} />;
  return children;
});
