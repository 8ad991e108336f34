import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { FolderOpen, Trash2 } from 'lucide-react';
import { resultDownloadName, type JobView } from '@imagestudio/contracts';
import { Button, ButtonLink, ConfirmDialog, EmptyState, Skeleton } from '../../components';
import { TOOLS } from '../../config/tools';
import { formatDate } from '../../lib/format';
import { useStore } from '../../stores';
import { CompositionsList } from './compositions-list';
import { Pager } from './pager';
import { ResultThumb } from './result-thumb';
import './job-lists.css';

/** One project card: thumbnail, tool and date, the pictures made from it, open / download / delete. */
const ProjectCard = observer(function ProjectCard({ job }: { job: JobView }) {
  const { jobLists, t } = useStore();
  const list = jobLists.projects;
  const first = job.results[0];
  const toolName = t(`client-tools.tool.${job.tool}`);
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="project-card" data-testid="project-card">
      <div className="project-card__thumb checkerboard">
        {first ? (
          <ResultThumb
            result={first}
            alt={t('client-tools.projects.thumbAlt', { tool: toolName, date: formatDate(job.created_at) })}
          />
        ) : null}
      </div>
      <div className="project-card__meta">
        <strong>{toolName}</strong>
        {job.input_name ? (
          <span className="project-card__name" data-testid="project-input-name">
            {job.input_name}
          </span>
        ) : null}
        <span>
          {formatDate(job.created_at)}
          {job.results.length > 1 ? ` · ${t('client-tools.projects.images', { n: job.results.length })}` : ''}
        </span>
      </div>
      <CompositionsList job={job} compact />
      <div className="project-card__actions">
        <ButtonLink to={`${TOOLS[job.tool].path}?job=${job.id}`} variant="secondary" size="sm">
          {t('client-tools.projects.open')}
        </ButtonLink>
        {first ? (
          <a className="btn btn--ghost btn--sm" href={first.url} download={resultDownloadName(job, 0, first.format)}>
            <span>{t('client-tools.common.download')}</span>
          </a>
        ) : null}
        <Button
          variant="ghost"
          size="sm"
          icon={<Trash2 aria-hidden="true" />}
          onClick={() => setConfirming(true)}
          busy={list.deleting.has(job.id)}
          busyText={t('client-tools.projects.deleting')}
          aria-label={`${t('client-tools.projects.delete')} ${toolName} ${formatDate(job.created_at)}`}
        >
          {t('client-tools.projects.delete')}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('client-tools.projects.deleteTitle')}
        confirmLabel={t('client-tools.projects.delete')}
        cancelLabel={t('client-tools.projects.keep')}
        closeLabel={t('shell.common.close')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void list.remove(job.id);
        }}
      >
        {t('client-tools.projects.confirmDelete')}
      </ConfirmDialog>
    </li>
  );
});

/** /account/my-projects: the user's finished results as a grid of thumbnails, paginated. */
export const ProjectsTab = observer(function ProjectsTab() {
  const { jobLists, t } = useStore();
  const list = jobLists.projects;
  useEffect(() => {
    void list.load(1);
  }, [list]);

  if (!list.loaded && list.loading) {
    return (
      <ul className="projects-grid" aria-busy="true">
        {[0, 1, 2].map((i) => (
          <li key={i}>
            <Skeleton height={180} radius={16} />
          </li>
        ))}
      </ul>
    );
  }
  if (list.error && !list.loaded) {
    return (
      <EmptyState
        icon={<FolderOpen aria-hidden="true" />}
        text={list.error}
        action={
          <Button variant="secondary" onClick={() => void list.load()}>
            {t('client-tools.lists.retry')}
          </Button>
        }
      />
    );
  }
  if (list.items.length === 0) {
    return (
      <EmptyState
        icon={<FolderOpen aria-hidden="true" />}
        text={t('client-tools.projects.empty')}
        action={<ButtonLink to={TOOLS.generate.path}>{t('client-tools.projects.startCta')}</ButtonLink>}
      />
    );
  }
  return (
    <div>
      <h2 className="visually-hidden">{t('client-tools.projects.title')}</h2>
      <ul className="projects-grid">
        {list.items.map((job) => (
          <ProjectCard key={job.id} job={job} />
        ))}
      </ul>
      <Pager page={list.page} last={list.lastPage} onPage={(p) => void list.load(p)} />
    </div>
  );
});
