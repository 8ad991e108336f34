import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { useParams } from 'react-router';
import { Button, Card, ConfirmDialog, Skeleton } from '../../components';
import { formatTokens } from '../../lib/format';
import { plural } from '../../lib/i18n';
import { useStore } from '../../stores';
import { TOKEN_COUNT } from './labels';
import { JobFacts, JobTimings } from './job-detail-parts';
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
        <JobFacts job={job} />
      </Card>
      <JobTimings job={job} />
      <Card className="admin-panel">
        <h2>{t('client-admin.ledger.title')}</h2>
        <LedgerTable rows={job.ledger} />
      </Card>
      <ReasonDialog
        open={refunding}
        title={t('client-admin.jobs.refundTitle')}
        lead={t('client-admin.jobs.refundLead', { tokens: plural(t, TOKEN_COUNT, job.cost, formatTokens(job.cost)) })}
        reasonHelp={t('client-admin.jobs.refundReasonHelp')}
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
