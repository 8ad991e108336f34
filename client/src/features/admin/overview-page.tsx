import { useEffect, useMemo } from 'react';
import { observer } from 'mobx-react-lite';
import { Card, Skeleton } from '../../components';
import { formatDateTime, formatTokens } from '../../lib/format';
import { plural } from '../../lib/i18n';
import { useStore } from '../../stores';
import { DEPOSIT_COUNT, JOB_STATUSES, JOB_STATUS_COLOR, JOB_STATUS_LABEL, TOKEN_COUNT } from './labels';
import { QueuesTable, WorkersCard } from './overview-tables';
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
        <QueuesTable queues={data.queues} />
      </Card>

      <WorkersCard workers={overview.workers} />

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
            deposits: plural(t, DEPOSIT_COUNT, depositTotals.count, formatTokens(depositTotals.count)),
            tokens: plural(t, TOKEN_COUNT, depositTotals.tokens, formatTokens(depositTotals.tokens)),
          })}
        </p>
      </Card>
    </div>
  );
});
