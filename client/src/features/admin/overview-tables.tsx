import { observer } from 'mobx-react-lite';
import type { AdminOverview } from '@imagestudio/contracts';
import { Badge, Card } from '../../components';
import { formatDateTime } from '../../lib/format';
import { useStore } from '../../stores';
import { TOOL_LABEL } from './labels';

/** The overview's queue per tool: jobs waiting, active, delayed, failed and cancelled, and how long the oldest has waited. */
export const QueuesTable = observer(function QueuesTable({ queues }: { queues: AdminOverview['queues'] }) {
  const { t } = useStore();
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" data-testid="admin-queues">
        <thead>
          <tr>
            <th scope="col">{t('client-admin.overview.tool')}</th>
            <th scope="col">{t('client-admin.overview.waiting')}</th>
            <th scope="col">{t('client-admin.overview.active')}</th>
            <th scope="col">{t('client-admin.overview.delayed')}</th>
            <th scope="col">{t('client-admin.overview.failed')}</th>
            <th scope="col">{t('client-admin.overview.cancelled')}</th>
            <th scope="col">{t('client-admin.overview.oldest')}</th>
          </tr>
        </thead>
        <tbody>
          {queues.map((q) => (
            <tr key={q.tool}>
              <th scope="row">{t(TOOL_LABEL[q.tool])}</th>
              <td>{q.waiting}</td>
              <td>{q.active}</td>
              <td>{q.delayed}</td>
              <td>{q.failed}</td>
              <td>{q.cancelled}</td>
              <td>{q.oldest_waiting_s === null ? '—' : t('client-admin.seconds', { n: q.oldest_waiting_s })}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
});

/** The workers that reported lately (the lost ones last), or a line saying there are none. */
export const WorkersCard = observer(function WorkersCard({ workers }: { workers: AdminOverview['workers'] }) {
  const { t } = useStore();
  return (
    <Card className="admin-panel">
      <h2>{t('client-admin.overview.workers')}</h2>
      {workers.length === 0 ? (
        <p className="admin-muted" data-testid="admin-no-workers">
          {t('client-admin.overview.noWorkers')}
        </p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table" data-testid="admin-workers">
            <thead>
              <tr>
                <th scope="col">{t('client-admin.overview.host')}</th>
                <th scope="col">{t('client-admin.overview.state')}</th>
                <th scope="col">{t('client-admin.overview.tools')}</th>
                <th scope="col">{t('client-admin.overview.provider')}</th>
                <th scope="col">{t('client-admin.overview.currentJobs')}</th>
                <th scope="col">{t('client-admin.overview.jobsDone')}</th>
                <th scope="col">{t('client-admin.overview.lastSeen')}</th>
              </tr>
            </thead>
            <tbody>
              {workers.map((w) => (
                <tr key={w.id} data-testid="admin-worker" data-state={w.state}>
                  <th scope="row" title={w.id}>
                    {w.host}
                  </th>
                  <td>
                    <Badge tone={w.state === 'live' ? 'success' : 'error'}>
                      {t(w.state === 'live' ? 'client-admin.overview.live' : 'client-admin.overview.lost')}
                    </Badge>
                  </td>
                  <td>{w.tools.map((tool) => t(TOOL_LABEL[tool])).join(', ')}</td>
                  <td>
                    {w.provider} · {w.version}
                  </td>
                  <td>{w.current_jobs === null ? '—' : w.current_jobs.length}</td>
                  <td>{w.jobs_done ?? '—'}</td>
                  <td>{formatDateTime(w.last_seen)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
});
