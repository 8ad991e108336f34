import { observer } from 'mobx-react-lite';
import { JOB_NAMES } from '@imagestudio/contracts';
import { useStore } from '../../stores';
import { workingTools, worksSentence } from './availability';
import { useToolStatus } from './use-status-refresh';
import './availability.css';

/**
 * One line above a page that describes every tool (About, the API reference) while some tool is switched off on
 * this server: which are off and which work. Nothing while all run or the status is not known yet.
 */
export const ToolsOffNotice = observer(function ToolsOffNotice() {
  const { tools, t } = useStore();
  useToolStatus();
  const status = tools.status;
  if (!status) return null;
  const off = JOB_NAMES.filter((tool) => !status[tool].available);
  if (off.length === 0) return null;
  const working = workingTools(status);
  const text =
    working.length === 0
      ? worksSentence(t, working)
      : [...off.map((tool) => t(`client-tools.off.${tool}`)), worksSentence(t, working)].join(' ');
  return (
    <p className="tools-off-notice" role="status" data-testid="tools-off-notice">
      {text}
    </p>
  );
});
