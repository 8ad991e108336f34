import { observer } from 'mobx-react-lite';
import { Button } from '../../components';
import { useStore } from '../../stores';
import type { ToolRunStore } from './stores/tool-run-store';

/** "New run" under a tool's controls, once its job has ended: back to an empty tool. */
export const NewRunButton = observer(function NewRunButton({ run, onClick }: { run: ToolRunStore; onClick(): void }) {
  const { t } = useStore();
  return run.state && !run.busy ? (
    <Button variant="ghost" block onClick={onClick}>
      {t('client-tools.common.newRun')}
    </Button>
  ) : null;
});
