import { observer } from 'mobx-react-lite';
import { CircleCheck, CircleX } from 'lucide-react';
import { Badge, Button, ProgressBar } from '../../components';
import { useStore } from '../../stores';
import type { ToolRunStore } from '../../stores/tool-run-store';

/**
 * The live state of a tool's run: upload progress, queued with its position, running with a progress bar
 * (and Cancel), or the failure with its message and the refund. Success is shown by the page's result.
 */
export const JobStatus = observer(function JobStatus({ run }: { run: ToolRunStore }) {
  const { t } = useStore();
  if (run.phase === 'submitting') {
    const percent = Math.round(run.uploadFraction * 100);
    return (
      <div className="job-status" data-testid="job-status" data-status="uploading">
        <p>{t('client-tools.job.uploading', { n: percent })}</p>
        <ProgressBar value={percent} label={t('client-tools.job.uploadLabel')} />
      </div>
    );
  }
  const state = run.state;
  if (!state || state.status === 'succeeded') return null;
  if (state.status === 'failed' || state.status === 'cancelled') {
    return (
      <div className="job-status job-status--ended" data-testid="job-status" data-status={state.status} role="alert">
        <p className="job-status__title">
          <CircleX aria-hidden="true" />
          {t(state.status === 'failed' ? 'client-tools.job.failed' : 'client-tools.job.cancelled')}
        </p>
        {state.job.error ? <p className="job-status__message">{state.job.error}</p> : null}
        {state.job.refunded ? (
          <p className="job-status__refund" data-testid="job-refunded">
            <CircleCheck aria-hidden="true" />
            {t('client-tools.job.refunded')}
          </p>
        ) : null}
      </div>
    );
  }
  const queued = state.status === 'queued';
  return (
    <div className="job-status" data-testid="job-status" data-status={state.status}>
      <div className="job-status__row">
        <Badge tone={queued ? 'neutral' : 'accent'}>{t(`client-tools.status.${state.status}`)}</Badge>
        <span>
          {queued
            ? state.queuePosition
              ? t('client-tools.job.queuePosition', { n: state.queuePosition })
              : t('client-tools.job.queued')
            : t('client-tools.job.running', { n: state.progress })}
        </span>
      </div>
      <ProgressBar value={queued ? undefined : state.progress} label={t('client-tools.job.progressLabel')} />
      <Button variant="secondary" size="sm" onClick={() => void run.cancel()} busy={run.cancelling} busyText={t('client-tools.job.cancelling')}>
        {t('client-tools.job.cancel')}
      </Button>
    </div>
  );
});
