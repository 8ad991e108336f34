import { useEffect, useMemo } from 'react';
import { observer } from 'mobx-react-lite';
import { Badge, Card, Skeleton } from '../../components';
import { formatDateTime, formatTokens } from '../../lib/format';
import { useStore } from '../../stores';
import { JOB_STATUSES, JOB_STATUS_COLOR, JOB_STATUS_LABEL, TOOL_LABEL } from './labels';
import { TimeChart, type ChartSeries } from './time-chart';
import { useAdmin } from './use-admin';

const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

/** /admin: queues per tool, live and lost workers, jobs per hour (24 h) and deposits per day (30 days); every 10 s. */
export const OverviewPage = observer(function OverviewPage() {
  const { t } = useStore();
  const { overview } = useAdmin();
  useEffect(() => overview.watch(), [overview]);
  const data = overview.data;

  const jobs = useMemo(() => {
    const rows = data?.jobs_per_hour ?? [];
    const series: ChartSeries[] = JOB_STATUSES.map((status) => ({
      label: t(JOB_STATUS_LABEL[status]),
      color: JOB_STATUS_COLOR[status],
      values: rows.map((r) => r[status]),
    }));
    return { times: rows.map((r) => seconds(r.hour)), series };
  }, [data, t]);

  const deposits = useMemo(() => {
    const rows = data?.deposits_per_day ?? [];
    return {
      times: rows.map((r) => seconds(`${r.day.slice(0, 10)}T00:00:00Z`)),
      series: [{ label: t('client-admin.overview.depositsCount'), color: '#7c5cff', values: rows.map((r) => r.count) }],
    };
  }, [data, t]);

  if (!data) {
    return (
      <Card className="admin-panel">
        <h1>{t('client-admin.overview.title')}</h1>
        {overview.error ? <p role="alert">{overview.error}</p> : <Skeleton height={240} />}
      </Card>
    );
  }

  const depositTotals = data.deposits_per_day.reduce(
    (sum, d) => ({ count: sum.count + d.count, tokens: sum.tokens + d.tokens }),
    { count: 0, tokens: 0 },
  );

  return (
    <div className="admin-stack">
      <Card className="admin-panel">
        <header className="admin-panel__header">
          <h1>{t('client-admin.overview.title')}</h1>
          <p className="admin-muted" aria-live="polite">
            {overview.error ?? t('client-admin.overview.updated', { time: formatDateTime(data.generated_at) })}
          </p>
        </header>
        <h2>{t('client-admin.overview.queues')}</h2>
        <div className="admin-table-wrap">
          <table className="admin-table" data-testid="admin-queues">
            <thead>
              <tr>
                <th scope="col">{t('client-admin.overview.tool')}</th>
                <th scope="col">{t('client-admin.overview.waiting')}</th>
                <th scope="col">{t('client-admin.overview.active')}</th>
                <th scope="col">{t('client-admin.overview.delayed')}</th>
                <th scope="col">{t('client-admin.overview.failed')}</th>
                <th scope="col">{t('client-admin.overview.oldest')}</th>
              </tr>
            </thead>
            <tbody>
              {data.queues.map((q) => (
                <tr key={q.tool}>
                  <th scope="row">{t(TOOL_LABEL[q.tool])}</th>
                  <td>{q.waiting}</td>
                  <td>{q.active}</td>
                  <td>{q.delayed}</td>
                  <td>{q.failed}</td>
                  <td>{q.oldest_waiting_s === null ? '—' : t('client-admin.seconds', { n: q.oldest_waiting_s })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>

      <Card className="admin-panel">
        <h2>{t('client-admin.overview.workers')}</h2>
        {overview.workers.length === 0 ? (
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
                {overview.workers.map((w) => (
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

      <Card className="admin-panel">
        <h2 id="jobs-chart">{t('client-admin.overview.jobsPerHour')}</h2>
        <TimeChart times={jobs.times} series={jobs.series} testId="chart-jobs" />
        <ul className="admin-legend" aria-labelledby="jobs-chart">
          {jobs.series.map((s) => (
            <li key={s.label}>
              <span className="admin-legend__swatch" style={{ background: s.color }} aria-hidden="true" />
              {s.label}: {s.values.reduce((a, b) => a + b, 0)}
            </li>
          ))}
        </ul>
      </Card>

      <Card className="admin-panel">
        <h2 id="deposits-chart">{t('client-admin.overview.depositsPerDay')}</h2>
        <TimeChart times={deposits.times} series={deposits.series} bars testId="chart-deposits" />
        <p className="admin-muted">
          {t('client-admin.overview.depositsTotal', {
            count: depositTotals.count,
            tokens: formatTokens(depositTotals.tokens),
          })}
        </p>
      </Card>
    </div>
  );
});
