import { Fragment } from 'react';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import type { AdminJobDetail } from '@imagestudio/contracts';
import { Badge, Card } from '../../components';
import { paths } from '../../config/paths';
import { formatDateTime, formatTokens } from '../../lib/format';
import { JOB_TONES } from '../../lib/status-tones';
import { useStore } from '../../stores';
import { JOB_STATUS_LABEL, TOOL_LABEL } from './labels';

/** A job's facts in the console: who ran which tool, its status and cost, the worker, the provider and the error. */
export const JobFacts = observer(function JobFacts({ job }: { job: AdminJobDetail }) {
  const { t } = useStore();
  return (
    <dl className="admin-facts">
      <dt>{t('client-admin.col.job')}</dt>
      <dd>
        <code>{job.id}</code>
      </dd>
      <dt>{t('client-admin.col.user')}</dt>
      <dd>
        <Link to={paths.admin.user(job.user_id)}>{job.user_email}</Link>
      </dd>
      <dt>{t('client-admin.col.tool')}</dt>
      <dd>{t(TOOL_LABEL[job.tool])}</dd>
      <dt>{t('client-admin.col.status')}</dt>
      <dd>
        <Badge tone={JOB_TONES[job.status]}>{t(JOB_STATUS_LABEL[job.status])}</Badge>
        {job.refunded ? ` ${t('client-admin.jobs.refunded')}` : ''}
      </dd>
      <dt>{t('client-admin.col.cost')}</dt>
      <dd>{formatTokens(job.cost)}</dd>
      <dt>{t('client-admin.col.created')}</dt>
      <dd>{formatDateTime(job.created_at)}</dd>
      <dt>{t('client-admin.jobs.worker')}</dt>
      <dd>{job.queue?.processed_by ?? '—'}</dd>
      <dt>{t('client-admin.jobs.provider')}</dt>
      <dd>{job.provider ?? '—'}</dd>
      <dt>{t('client-admin.jobs.attempts')}</dt>
      <dd>{job.queue ? `${job.queue.attempts_made} (${job.queue.state})` : '—'}</dd>
      <dt>{t('client-admin.jobs.error')}</dt>
      <dd>{[job.error, job.error_detail, job.queue?.failed_reason].filter(Boolean).join(' — ') || '—'}</dd>
    </dl>
  );
});

/** How long a job waited and ran (each stage too), and the parameters it ran with. */
export const JobTimings = observer(function JobTimings({ job }: { job: AdminJobDetail }) {
  const { t } = useStore();
  const stages = Object.entries(job.timings.stages_ms ?? {});
  const seconds = (s: number | null) => (s === null ? '—' : t('client-admin.seconds', { n: s }));
  return (
    <Card className="admin-panel">
      <h2>{t('client-admin.jobs.timings')}</h2>
      <dl className="admin-facts">
        <dt>{t('client-admin.jobs.queued')}</dt>
        <dd>{seconds(job.timings.queued_s)}</dd>
        <dt>{t('client-admin.jobs.running')}</dt>
        <dd>{seconds(job.timings.running_s)}</dd>
        <dt>{t('client-admin.jobs.total')}</dt>
        <dd>{seconds(job.timings.total_s)}</dd>
        {stages.map(([stage, ms]) => (
          <Fragment key={stage}>
            <dt>{stage}</dt>
            <dd>{t('client-admin.ms', { n: ms })}</dd>
          </Fragment>
        ))}
      </dl>
      <h2>{t('client-admin.jobs.params')}</h2>
      <pre className="admin-json">{JSON.stringify(job.params, null, 2)}</pre>
    </Card>
  );
});
