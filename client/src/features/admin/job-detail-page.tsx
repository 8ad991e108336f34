import { Fragment, useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useParams } from 'react-router';
import { Badge, Button, Card, ConfirmDialog, Skeleton } from '../../components';
import { paths } from '../../config/paths';
import { formatDateTime, formatTokens } from '../../lib/format';
import { JOB_TONES } from '../../lib/status-tones';
import { useStore } from '../../stores';
import { JOB_STATUS_LABEL, TOOL_LABEL } from './labels';
import { LedgerTable } from './ledger-table';
import { ReasonDialog } from './reason-dialog';
import { useAdmin } from './use-admin';

/** /admin/jobs/:id: params, timings per stage, worker, provider, error, ledger rows; refund once, cancel. */
export const JobDetailPage = observer(function JobDetailPage() {
  const { t } = useStore();
  const { job: store } = useAdmin();
  const { id = '' } = useParams();
  const [refunding, setRefunding] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    void store.load(id);
  }, [store, id]);
  const job = store.job;
  if (!job || job.id !== id) {
    return (
      <Card className="admin-panel">
        <h1>{t('client-admin.jobs.detailTitle')}</h1>
        {store.error ? <p role="alert">{store.error}</p> : <Skeleton height={200} />}
      </Card>
    );
  }
  const stages = Object.entries(job.timings.stages_ms ?? {});
  const seconds = (s: number | null) => (s === null ? '—' : t('client-admin.seconds', { n: s }));
  return (
    <div className="admin-stack">
      <Card className="admin-panel">
        <header className="admin-panel__header">
          <h1>{t('client-admin.jobs.detailTitle')}</h1>
          <div className="admin-actions">
            {store.canRefund ? (
              <Button size="sm" onClick={() => setRefunding(true)}>
                {t('client-admin.jobs.refund')}
              </Button>
            ) : null}
            {store.canCancel ? (
              <Button size="sm" variant="secondary" onClick={() => setCancelling(true)}>
                {t('client-admin.jobs.cancel')}
              </Button>
            ) : null}
          </div>
        </header>
        {notice ? (
          <p className="admin-alert" role="status">
            {notice}
          </p>
        ) : null}
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
      </Card>
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
      <Card className="admin-panel">
        <h2>{t('client-admin.ledger.title')}</h2>
        <LedgerTable rows={job.ledger} />
      </Card>
      <ReasonDialog
        open={refunding}
        title={t('client-admin.jobs.refundTitle')}
        lead={t('client-admin.jobs.refundLead', { tokens: formatTokens(job.cost) })}
        confirmLabel={t('client-admin.jobs.refund')}
        busy={store.busy}
        onCancel={() => setRefunding(false)}
        onSubmit={async (reason) => {
          const outcome = await store.refund(reason);
          if (outcome.ok) {
            setRefunding(false);
            setNotice(t('client-admin.jobs.refundDone'));
          }
          return outcome;
        }}
      />
      <ConfirmDialog
        open={cancelling}
        title={t('client-admin.jobs.cancelTitle')}
        confirmLabel={t('client-admin.jobs.cancel')}
        cancelLabel={t('client-admin.keep')}
        closeLabel={t('client-admin.close')}
        busy={store.busy}
        onCancel={() => setCancelling(false)}
        onConfirm={async () => {
          const outcome = await store.cancel();
          setCancelling(false);
          setNotice(outcome.ok ? t('client-admin.jobs.cancelDone') : outcome.message);
        }}
      >
        <p>{t('client-admin.jobs.cancelLead')}</p>
      </ConfirmDialog>
    </div>
  );
});
