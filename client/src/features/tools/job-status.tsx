import { observer } from 'mobx-react-lite';
import { CircleSlash, CircleX } from 'lucide-react';
import { parseJobStage, type JobName } from '@imagestudio/contracts';
import { Badge, Button, ProgressBar } from '../../components';
import { TOOLS } from '../../config/tools';
import { useNow } from '../../hooks/use-now';
import type { Translate } from '../../lib/i18n';
import { useStore } from '../../stores';
import { secondsLeftNow, type JobProgress } from '../../stores/job-progress';
import type { ToolRunStore } from './stores/tool-run-store';

/** The stage a running job is in, named for people: "Processing tile 3 of 12", "Encoding the result". */
export function stageText(t: Translate, tool: JobName, stage: string | null): string {
  const report = parseJobStage(stage);
  if (!report) return t('client-tools.stage.starting');
  if (report.stage === 'processing' && report.done !== null && report.total !== null) {
    return t(TOOLS[tool].progressText, { done: report.done, total: report.total });
  }
  return t(`client-tools.stage.${report.stage}`);
}

/**
 * The time left as a range a person reads at a glance ("Less than a minute left", "About 3 minutes left"):
 * an estimate is never exact to the second, and a figure ticking past it reads as broken. "Almost done" once
 * the estimate has run out.
 */
export function timeLeftText(t: Translate, seconds: number | null): string | null {
  if (seconds === null) return null;
  if (seconds <= 0) return t('client-tools.job.almostDone');
  if (seconds < 10) return t('client-tools.job.fewSecondsLeft');
  if (seconds < 45) return t('client-tools.job.underMinuteLeft');
  if (seconds < 90) return t('client-tools.job.minuteLeft');
  return t('client-tools.job.minutesLeft', { n: Math.round(seconds / 60) });
}

/** How a job that ended without a result is said: the message, and the refund where the message does not say it. */
export function endedText(t: Translate, state: JobProgress): { message: string; refundNote: string | null } {
  // One message: the server's own text says what happened and whether the tokens came back.
  const message =
    state.status === 'cancelled'
      ? t(state.job.refunded ? 'client-tools.job.cancelledRefunded' : 'client-tools.job.cancelled')
      : (state.job.error ?? t('client-tools.job.failed'));
  // A service's own reason (e.g. a declined prompt) does not mention the refund: say it once, after it.
  const refundUnsaid = state.status === 'failed' && state.job.refunded && !/refund|erstatt/i.test(message);
  return { message, refundNote: refundUnsaid ? t('client-tools.job.refundedNote') : null };
}

/**
 * The one status line a screen reader hears about a run (the page's only live region): "Cancelling..." as soon
 * as Cancel is pressed, then "Done" or how the job ended; nothing while it runs (its percent would be read at
 * every step).
 */
export function runAnnouncement(t: Translate, run: ToolRunStore): string {
  const state = run.state;
  if (run.cancelling) return t('client-tools.job.cancelling');
  if (!state || run.phase === 'submitting') return '';
  if (state.status === 'succeeded') return t('client-tools.job.succeeded');
  if (state.status === 'failed' || state.status === 'cancelled') {
    const { message, refundNote } = endedText(t, state);
    return refundNote ? `${message} ${refundNote}` : message;
  }
  return '';
}

/**
 * The live state of a tool's run: upload progress, queued with its position, running with the stage it is
 * in, its progress and the time left (and Cancel), or how it ended in one message. Success is shown by the
 * page's result.
 */
export const JobStatus = observer(function JobStatus({ run }: { run: ToolRunStore }) {
  const { t } = useStore();
  const state = run.state;
  const open = state !== null && (state.status === 'queued' || state.status === 'running');
  const now = useNow(1000, open);
  if (run.phase === 'submitting') {
    const percent = Math.round(run.uploadFraction * 100);
    return (
      <div className="job-status" data-testid="job-status" data-status="uploading">
        <p>{t('client-tools.job.uploading', { n: percent })}</p>
        <ProgressBar value={percent} label={t('client-tools.job.uploadLabel')} />
      </div>
    );
  }
  if (!state || state.status === 'succeeded') return null;
  if (state.status === 'failed' || state.status === 'cancelled') {
    const { message, refundNote } = endedText(t, state);
    // A cancel is the customer's own choice: a calm notice, not the red of a failure. Neither is a live region
    // of its own: the page's status line (runAnnouncement) says it once, and the message takes the focus.
    const cancelled = state.status === 'cancelled';
    return (
      <div
        className={`job-status job-status--ended${cancelled ? ' job-status--cancelled' : ''}`}
        data-testid="job-status"
        data-status={state.status}
      >
        <p className="job-status__title" data-testid="job-ended-message" tabIndex={-1} data-run-outcome="">
          {cancelled ? <CircleSlash aria-hidden="true" /> : <CircleX aria-hidden="true" />}
          {message}
          {refundNote ? <span data-testid="job-refunded"> {refundNote}</span> : null}
        </p>
      </div>
    );
  }
  const queued = state.status === 'queued';
  // A time left means nothing once Cancel is pressed: the job stops at its next step.
  const left = run.cancelling ? null : timeLeftText(t, secondsLeftNow(state, now));
  const stage = queued
    ? state.queuePosition
      ? t('client-tools.job.queuePosition', { n: state.queuePosition })
      : t('client-tools.job.queued')
    : stageText(t, run.tool, state.job.stage);
  return (
    <div
      className="job-status"
      data-testid="job-status"
      data-status={state.status}
      data-stage={parseJobStage(state.job.stage)?.stage ?? ''}
    >
      <div className="job-status__row">
        <Badge tone={queued ? 'neutral' : 'accent'}>{t(`client-tools.status.${state.status}`)}</Badge>
        <span data-testid="job-stage">{stage}</span>
        {queued ? null : <span className="job-status__percent">{state.progress}%</span>}
        {left ? (
          <span className="job-status__left" data-testid="job-time-left">
            {left}
          </span>
        ) : null}
      </div>
      <ProgressBar value={queued ? undefined : state.progress} label={t('client-tools.job.progressLabel')} />
      <Button
        variant="secondary"
        size="sm"
        onClick={() => void run.cancel()}
        busy={run.cancelling}
        busyText={t('client-tools.job.cancelling')}
      >
        {t('client-tools.job.cancel')}
      </Button>
    </div>
  );
});
