import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { Badge, Card, Select, TextField } from '../../components';
import { paths } from '../../config/paths';
import { formatDateTime, formatTokens } from '../../lib/format';
import { JOB_TONES } from '../../lib/status-tones';
import { useStore } from '../../stores';
import { JOB_NAMES, JOB_STATUSES, JOB_STATUS_LABEL, TOOL_LABEL } from './labels';
import { DayFilter, FilterForm, ListBody } from './list-parts';
import { useAdmin } from './use-admin';

/** /admin/jobs: every user's jobs, newest first, searched by user, tool, status and date. */
export const JobsPage = observer(function JobsPage() {
  const { t } = useStore();
  const { jobs } = useAdmin();
  useEffect(() => {
    if (!jobs.loaded) void jobs.search();
  }, [jobs]);
  const f = jobs.filters;
  return (
    <Card className="admin-panel">
      <h1>{t('client-admin.jobs.title')}</h1>
      <FilterForm onSearch={() => void jobs.search()}>
        <TextField
          label={t('client-admin.filter.user')}
          value={f.user}
          onChange={(e) => jobs.setFilter('user', e.target.value)}
        />
        <Select
          label={t('client-admin.filter.tool')}
          value={f.tool}
          onChange={(e) => jobs.setFilter('tool', e.target.value)}
          options={[
            { value: '', label: t('client-admin.filter.any') },
            ...JOB_NAMES.map((tool) => ({ value: tool, label: t(TOOL_LABEL[tool]) })),
          ]}
        />
        <Select
          label={t('client-admin.filter.status')}
          value={f.status}
          onChange={(e) => jobs.setFilter('status', e.target.value)}
          options={[
            { value: '', label: t('client-admin.filter.any') },
            ...JOB_STATUSES.map((s) => ({ value: s, label: t(JOB_STATUS_LABEL[s]) })),
          ]}
        />
        <DayFilter
          label={t('client-admin.filter.from')}
          value={f.from}
          onChange={(day) => jobs.setFilter('from', day)}
        />
        <DayFilter label={t('client-admin.filter.to')} value={f.to} onChange={(day) => jobs.setFilter('to', day)} />
      </FilterForm>
      <ListBody list={jobs}>
        <table className="admin-table" data-testid="admin-jobs">
          <thead>
            <tr>
              <th scope="col">{t('client-admin.col.created')}</th>
              <th scope="col">{t('client-admin.col.user')}</th>
              <th scope="col">{t('client-admin.col.tool')}</th>
              <th scope="col">{t('client-admin.col.status')}</th>
              <th scope="col">{t('client-admin.col.cost')}</th>
              <th scope="col">{t('client-admin.col.job')}</th>
            </tr>
          </thead>
          <tbody>
            {jobs.items.map((job) => (
              <tr key={job.id}>
                <td>{formatDateTime(job.created_at)}</td>
                <td>
                  <Link to={paths.admin.user(job.user_id)}>{job.user_email}</Link>
                </td>
                <td>{t(TOOL_LABEL[job.tool])}</td>
                <td>
                  <Badge tone={JOB_TONES[job.status]}>{t(JOB_STATUS_LABEL[job.status])}</Badge>
                  {job.refunded ? ` ${t('client-admin.jobs.refunded')}` : ''}
                </td>
                <td>{formatTokens(job.cost)}</td>
                <td>
                  <Link to={paths.admin.job(job.id)}>{t('client-admin.details')}</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListBody>
    </Card>
  );
});
