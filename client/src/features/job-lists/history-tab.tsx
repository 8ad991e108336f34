import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { History } from 'lucide-react';
import { JOB_NAMES, JOB_STATUSES, type JobStatus, type JobView } from '@imagestudio/contracts';
import { Badge, Button, EmptyState, Select, Skeleton, type BadgeTone } from '../../components';
import { formatDate } from '../../lib/format';
import { useStore } from '../../stores';
import { tokensLabel } from '../../lib/tokens-label';
import { Pager } from './pager';
import './job-lists.css';

const TONES: Record<JobStatus, BadgeTone> = { queued: 'neutral', running: 'accent', succeeded: 'success', failed: 'error', cancelled: 'warning' };

const Row = observer(function Row({ job }: { job: JobView }) {
  const { t } = useStore();
  return (
    <tr data-testid="history-row">
      <td>{t(`client-tools.tool.${job.tool}`)}</td>
      <td>
        <Badge tone={TONES[job.status]}>{t(`client-tools.status.${job.status}`)}</Badge>
      </td>
      <td>
        {tokensLabel(t, job.cost)}{' '}
        {job.refunded ? <Badge tone="success">{t('client-tools.history.refunded')}</Badge> : null}
        {job.deleted ? <Badge>{t('client-tools.history.deleted')}</Badge> : job.expired ? <Badge>{t('client-tools.history.expired')}</Badge> : null}
      </td>
      <td>{formatDate(job.created_at)}</td>
    </tr>
  );
});

/** /account/request-history: every job with tool, status, cost, refund mark and date; filters; pages. */
export const HistoryTab = observer(function HistoryTab() {
  const { jobLists, t } = useStore();
  const list = jobLists.history;
  useEffect(() => {
    void list.load(1);
  }, [list]);

  const filtered = list.filters.tool !== '' || list.filters.status !== '';
  const all = { value: '', label: t('client-tools.history.all') };
  let body;
  if (!list.loaded && list.loading) {
    body = <Skeleton height={160} radius={16} />;
  } else if (list.error && !list.loaded) {
    body = (
      <EmptyState
        icon={<History aria-hidden="true" />}
        text={list.error}
        action={<Button variant="secondary" onClick={() => void list.load()}>{t('client-tools.lists.retry')}</Button>}
      />
    );
  } else if (list.items.length === 0) {
    body = <EmptyState icon={<History aria-hidden="true" />} text={t(filtered ? 'client-tools.history.emptyFiltered' : 'client-tools.history.empty')} />;
  } else {
    body = (
      <>
        <div className="history-table-wrap">
          <table className="history-table">
            <caption className="visually-hidden">{t('client-tools.history.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('client-tools.history.colTool')}</th>
                <th scope="col">{t('client-tools.history.colStatus')}</th>
                <th scope="col">{t('client-tools.history.colCost')}</th>
                <th scope="col">{t('client-tools.history.colDate')}</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((job) => (
                <Row key={job.id} job={job} />
              ))}
            </tbody>
          </table>
        </div>
        <Pager page={list.page} last={list.lastPage} onPage={(p) => void list.load(p)} />
      </>
    );
  }
  return (
    <div className="history">
      <div className="history__filters">
        <Select
          label={t('client-tools.history.filterTool')}
          value={list.filters.tool}
          options={[all, ...JOB_NAMES.map((tool) => ({ value: tool, label: t(`client-tools.tool.${tool}`) }))]}
          onChange={(e) => list.setFilter('tool', e.target.value)}
        />
        <Select
          label={t('client-tools.history.filterStatus')}
          value={list.filters.status}
          options={[all, ...JOB_STATUSES.map((s) => ({ value: s, label: t(`client-tools.status.${s}`) }))]}
          onChange={(e) => list.setFilter('status', e.target.value)}
        />
      </div>
      {body}
    </div>
  );
});
