import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { History } from 'lucide-react';
import { Link } from 'react-router';
import { ChevronDown } from 'lucide-react';
import {
  JOB_NAMES,
  JOB_STATUSES,
  UPSCALE_MODELS,
  batchStatusOf,
  resultDownloadName,
  type BatchSummary,
  type JobView,
  type UpscaleModel,
} from '@imagestudio/contracts';
import { Badge, Button, EmptyState, Select, Skeleton } from '../../components';
import { formatDate, formatTime } from '../../lib/format';
import { useStore } from '../../stores';
import { batchMoneyLabel, tokensLabel } from '../../lib/tokens-label';
import { CompositionsList } from './compositions-list';
import { Pager } from './pager';
import { ResultThumb } from './result-thumb';
import { TOOLS } from '../../config/tools';
import { BATCH_TONES, JOB_TONES } from '../../lib/status-tones';
import './job-lists.css';

/** Upscaling jobs show the model they ran (jobs from before the model choice have none). */
const isUpscaleModel = (m: unknown): m is UpscaleModel => (UPSCALE_MODELS as readonly unknown[]).includes(m);

const Row = observer(function Row({ job, nested = false }: { job: JobView; nested?: boolean }) {
  const { t } = useStore();
  // Results can be shown and fetched only while their files are kept.
  const first = job.results[0];
  const toolName = t(`client-tools.tool.${job.tool}`);
  return (
    <tr data-testid="history-row" className={nested ? 'history-batch__item' : undefined}>
      <td className="history-table__thumb" data-label={t('client-tools.history.colPreview')}>
        {first ? (
          <ResultThumb
            className="checkerboard"
            result={first}
            alt={t('client-tools.history.thumbAlt', { tool: toolName })}
            size={48}
          />
        ) : null}
      </td>
      <td data-label={t('client-tools.history.colTool')}>
        {/* A batch's items are told apart by their files; the batch row above names the tool. */}
        {nested && job.input_name ? (
          <span className="history-table__name" data-testid="history-input-name" title={job.input_name}>
            {job.input_name}
          </span>
        ) : (
          <>
            {toolName}
            {job.tool === 'upscale' && isUpscaleModel(job.params.model)
              ? ` · ${t(`client-tools.upscale.modelName.${job.params.model}`)}`
              : null}
          </>
        )}
      </td>
      <td data-label={t('client-tools.history.colStatus')}>
        <Badge tone={JOB_TONES[job.status]}>{t(`client-tools.status.${job.status}`)}</Badge>
      </td>
      <td data-label={t('client-tools.history.colCost')}>
        {tokensLabel(t, job.cost)}{' '}
        {job.refunded ? <Badge tone="success">{t('client-tools.history.refunded')}</Badge> : null}
        {job.deleted ? (
          <Badge>{t('client-tools.history.deleted')}</Badge>
        ) : job.expired ? (
          <Badge>{t('client-tools.history.expired')}</Badge>
        ) : null}
      </td>
      <td data-label={t('client-tools.history.colDate')}>
        {t('client-tools.history.dateTime', { date: formatDate(job.created_at), time: formatTime(job.created_at) })}
      </td>
      <td data-label={t('client-tools.history.colActions')}>
        {first ? (
          <span className="history-table__actions">
            <Link to={`${TOOLS[job.tool].path}?job=${job.id}`}>{t('client-tools.history.open')}</Link>
            <a href={first.url} download={resultDownloadName(job, 0, first.format)}>
              {t('client-tools.common.download')}
            </a>
          </span>
        ) : null}
      </td>
    </tr>
  );
});

/**
 * A job's row, and under it the pictures made from it (a background removal's compositions) on a row of their own:
 * a cell per picture would widen the table past its column.
 */
function JobRows({ job, nested = false }: { job: JobView; nested?: boolean }) {
  return (
    <>
      <Row job={job} nested={nested} />
      {job.compositions?.length ? (
        <tr className={`history-compositions${nested ? ' history-batch__item' : ''}`}>
          <td colSpan={6}>
            <CompositionsList job={job} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** The listed jobs in order, a batch's jobs gathered where its newest one is. */
type Entry = { kind: 'job'; job: JobView } | { kind: 'batch'; id: string; jobs: JobView[] };

export function groupByBatch(jobs: JobView[]): Entry[] {
  const entries: Entry[] = [];
  const groups = new Map<string, JobView[]>();
  for (const job of jobs) {
    if (!job.batch_id) {
      entries.push({ kind: 'job', job });
      continue;
    }
    const group = groups.get(job.batch_id);
    if (group) group.push(job);
    else {
      const jobsOfBatch = [job];
      groups.set(job.batch_id, jobsOfBatch);
      entries.push({ kind: 'batch', id: job.batch_id, jobs: jobsOfBatch });
    }
  }
  return entries;
}

/** A batch in history: one row (size, status, cost, open), its jobs' rows shown on demand. */
const BatchRows = observer(function BatchRows({
  id,
  jobs,
  summary,
}: {
  id: string;
  jobs: JobView[];
  summary: BatchSummary | undefined;
}) {
  const { t } = useStore();
  const [open, setOpen] = useState(false);
  const first = jobs[0]!;
  const thumb = jobs.find((j) => j.results[0])?.results[0];
  const status = summary?.status ?? batchStatusOf(jobs.map((j) => j.status));
  const cost = summary?.cost ?? jobs.reduce((sum, j) => sum + Math.round(j.cost * 10), 0) / 10;
  const toolName = t(`client-tools.tool.${first.tool}`);
  return (
    <tbody className="history-batch" data-testid="history-batch">
      <tr className="history-batch__head">
        <td className="history-table__thumb" data-label={t('client-tools.history.colPreview')}>
          {thumb ? (
            <ResultThumb
              className="checkerboard"
              result={thumb}
              alt={t('client-tools.history.thumbAlt', { tool: toolName })}
              size={48}
            />
          ) : null}
        </td>
        <td data-label={t('client-tools.history.colTool')}>
          <strong>{t('client-tools.history.batch', { n: summary?.total ?? jobs.length })}</strong>
          <br />
          {toolName}
        </td>
        <td data-label={t('client-tools.history.colStatus')}>
          <Badge tone={BATCH_TONES[status]}>{t(`client-tools.batch.status.${status}`)}</Badge>
        </td>
        <td data-label={t('client-tools.history.colCost')}>{batchMoneyLabel(t, cost, summary?.refunded ?? 0)}</td>
        <td data-label={t('client-tools.history.colDate')}>
          {t('client-tools.history.dateTime', {
            date: formatDate(first.created_at),
            time: formatTime(first.created_at),
          })}
        </td>
        <td data-label={t('client-tools.history.colActions')}>
          <span className="history-table__actions">
            <Link to={`${TOOLS[first.tool].path}?batch=${id}`}>{t('client-tools.history.openBatch')}</Link>
            <button type="button" className="history-batch__toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
              <span>{t('client-tools.history.showItems')}</span>
              <ChevronDown aria-hidden="true" />
            </button>
          </span>
        </td>
      </tr>
      {open ? jobs.map((job) => <JobRows key={job.id} job={job} nested />) : null}
    </tbody>
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
        action={
          <Button variant="secondary" onClick={() => void list.load()}>
            {t('client-tools.lists.retry')}
          </Button>
        }
      />
    );
  } else if (list.items.length === 0) {
    body = (
      <EmptyState
        icon={<History aria-hidden="true" />}
        text={t(filtered ? 'client-tools.history.emptyFiltered' : 'client-tools.history.empty')}
      />
    );
  } else {
    body = (
      <>
        <div className="history-table-wrap">
          <table className="history-table">
            <caption className="visually-hidden">{t('client-tools.history.title')}</caption>
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">{t('client-tools.history.colPreview')}</span>
                </th>
                <th scope="col">{t('client-tools.history.colTool')}</th>
                <th scope="col">{t('client-tools.history.colStatus')}</th>
                <th scope="col">{t('client-tools.history.colCost')}</th>
                <th scope="col">{t('client-tools.history.colDate')}</th>
                <th scope="col">{t('client-tools.history.colActions')}</th>
              </tr>
            </thead>
            {groupByBatch(list.items).map((entry) =>
              entry.kind === 'job' ? (
                <tbody key={entry.job.id}>
                  <JobRows job={entry.job} />
                </tbody>
              ) : (
                <BatchRows key={entry.id} id={entry.id} jobs={entry.jobs} summary={list.batches.get(entry.id)} />
              ),
            )}
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
