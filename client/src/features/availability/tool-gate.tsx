import type { ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { useSearchParams } from 'react-router';
import type { JobName } from '@imagestudio/contracts';
import { useStore } from '../../stores';
import { ToolUnavailable } from './tool-unavailable';
import { useStatusRefresh } from './use-status-refresh';
import './availability.css';

/**
 * Wraps a tool page: keeps the tool status fresh while it is open and, when no live worker offers the tool,
 * shows why instead of a form that cannot run. A page showing a job (`?job=`, from My Projects or a run
 * started before the worker left) stays as it is, so its result or outcome is never hidden. A tool whose worker
 * is started on demand gets the form and one line saying that the first result waits for that start.
 */
export const ToolGate = observer(function ToolGate({ tool, children }: { tool: JobName; children: ReactNode }) {
  const { tools, t } = useStore();
  const [params] = useSearchParams();
  useStatusRefresh();
  if (tools.available(tool) === false && !params.get('job')) return <ToolUnavailable tool={tool} />;
  if (!tools.status?.[tool].onDemand) return children;
  return (
    <>
      <p className="tools-off-notice tool-on-demand" role="status" data-testid="tool-on-demand">
        {t('client-availability.onDemand')}
      </p>
      {children}
    </>
  );
});
