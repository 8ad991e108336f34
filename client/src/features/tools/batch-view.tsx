import { useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Archive, Download, ImageIcon, RotateCcw, X } from 'lucide-react';
import { resultDownloadName, type BatchItemView } from '@imagestudio/contracts';
import { Badge, Button, ConfirmDialog, ProgressBar } from '../../components';
import { BATCH_TONES, JOB_TONES } from '../../lib/status-tones';
import { resultPreviewSrc } from '../../lib/result-preview';
import { batchMoneyLabel, tokensLabel } from '../../lib/tokens-label';
import { useStore } from '../../stores';
import type { BatchRunStore } from './stores/batch-run-store';
import { BatchItemViewer, WrappingName } from './batch-item-viewer';
import { stageText } from './job-status';
import { shownInputUrl } from './upload-checks';
import { batchCount, type BatchChoice } from './use-upload';
import './batches.css';

/** The total of `count` items at `unit` tokens each, exact to a tenth. */
export function batchTotal(unit: number, count: number): number {
  return (Math.round(unit * 10) * count) / 10;
}

/** Before the run: the chosen images (or the ZIP) with their checks, and the total price. */
const BatchChoiceView = observer(function BatchChoiceView({
  choice,
  unitCost,
  onRemove,
}: {
  choice: BatchChoice;
  unitCost: number | undefined;
  onRemove?(index: number): void;
}) {
  const { t } = useStore();
  const count = batchCount(choice);
  const refused = choice.images.filter((i) => i.problem !== null).length;
  const unit = unitCost === undefined ? null : tokensLabel(t, unitCost);
  return (
    <div className="batch" data-testid="batch-choice">
      <p className="batch__price" data-testid="batch-price">
        {unit === null
          ? t('client-tools.batch.count', { n: count ?? 0 })
          : count === null
            ? t('client-tools.batch.pricePerImage', { unit })
            : t('client-tools.batch.price', { n: count, unit, total: tokensLabel(t, batchTotal(unitCost!, count)) })}
      </p>
      {refused > 0 && !choice.checking ? (
        // Refused images are left out of the run (and of the price); each says why below and can be removed.
        <p className="notice notice--warning" data-testid="batch-left-out">
          {t('client-tools.batch.leftOut', { n: refused })}
        </p>
      ) : null}
      {choice.archive ? (
        <div className="batch__archive">
          <Archive aria-hidden="true" />
          <span>{choice.archive.file.name}</span>
        </div>
      ) : (
        <ul className="batch__grid" aria-label={t('client-tools.batch.chosenLabel')}>
          {choice.images.map((image, i) => (
            <li
              key={`${image.file.name}-${i}`}
              className={`batch-item${image.problem ? ' batch-item--error' : ''}`}
              data-testid="batch-choice-item"
            >
              <div className="batch-item__thumb">
                {image.url ? <img className="checkerboard" src={image.url} alt="" /> : null}
              </div>
              <span className="batch-item__name">
                <WrappingName name={image.file.name} />
              </span>
              {image.problem ? (
                <span className="batch-item__error">{t(image.problem.key, image.problem.vars)}</span>
              ) : null}
              {onRemove && image.problem ? (
                <Button
                  variant="secondary"
                  size="sm"
                  icon={<X aria-hidden="true" size={16} />}
                  aria-label={t('client-tools.batch.removeNamed', { name: image.file.name })}
                  onClick={() => onRemove(i)}
                >
                  {t('client-tools.batch.remove')}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});

/** One item of a running or finished batch: thumbnail, name, status, progress, and its actions. */
const BatchItemCard = observer(function BatchItemCard({
  item,
  batch,
  onRetry,
}: {
  item: BatchItemView;
  batch: BatchRunStore;
  onRetry(item: BatchItemView): void;
}) {
  const { t } = useStore();
  const result = item.results[0];
  // The thumbnail is decorative: the file name is written beside it.
  // Before its result an item shows its input's WebP preview (made by the server for HEIC, AVIF, TIFF and large
  // inputs), else its input unless this browser may not show it. A result shows its small preview: 50 full-size
  // results in 50 small slots would download every picture whole.
  const thumb = result ? resultPreviewSrc(result) : shownInputUrl(item);
  const job = { tool: batch.tool, input_name: item.file_name, params: batch.view?.params ?? {} };
  const [viewing, setViewing] = useState(false);
  // A finished item's thumbnail opens it large, with the before/after slider and its download.
  const viewable = Boolean(result && item.input_url);
  return (
    <li className={`batch-item batch-item--${item.status}`} data-testid="batch-item" data-status={item.status}>
      {viewable ? (
        <button
          type="button"
          className="batch-item__thumb batch-item__open"
          aria-label={t('client-tools.batch.viewer.open', { name: item.file_name })}
          onClick={() => setViewing(true)}
        >
          {thumb ? (
            <img className="checkerboard" src={thumb} alt="" loading="lazy" />
          ) : (
            <ImageIcon aria-hidden="true" />
          )}
        </button>
      ) : (
        <div className="batch-item__thumb">
          {thumb ? <img className="checkerboard" src={thumb} alt="" loading="lazy" /> : null}
        </div>
      )}
      {viewing && result ? (
        <BatchItemViewer
          item={item}
          downloadName={resultDownloadName(job, 0, result.format)}
          onClose={() => setViewing(false)}
        />
      ) : null}
      <span className="batch-item__name">
        <WrappingName name={item.file_name} />
      </span>
      <span className="batch-item__status">
        <Badge tone={JOB_TONES[item.status]}>{t(`client-tools.status.${item.status}`)}</Badge>
        {item.refunded ? <Badge tone="success">{t('client-tools.history.refunded')}</Badge> : null}
      </span>
      {item.status === 'running' ? (
        <>
          <span className="batch-item__stage">{stageText(t, batch.tool, item.stage)}</span>
          <ProgressBar value={item.progress} label={t('client-tools.batch.itemProgress', { name: item.file_name })} />
        </>
      ) : item.status === 'queued' && item.queue_position ? (
        <span className="batch-item__stage">{t('client-tools.job.queuePosition', { n: item.queue_position })}</span>
      ) : null}
      {item.status === 'failed' && item.error ? <span className="batch-item__error">{item.error}</span> : null}
      <span className="batch-item__actions">
        {result ? (
          <a href={result.url} download={resultDownloadName(job, 0, result.format)} className="batch-item__link">
            {t('client-tools.common.download')}
          </a>
        ) : null}
        {item.status === 'failed' || item.status === 'cancelled' ? (
          <Button
            variant="secondary"
            size="sm"
            icon={<RotateCcw aria-hidden="true" size={16} />}
            busy={batch.retrying.has(item.id)}
            busyText={t('client-tools.common.starting')}
            onClick={() => onRetry(item)}
            aria-label={t('client-tools.batch.retryNamed', { name: item.file_name })}
          >
            {t('client-tools.batch.retry')}
          </Button>
        ) : null}
      </span>
    </li>
  );
});

/** A batch after its upload: counts, overall progress, Cancel all, Download all (ZIP), and the item grid. */
const BatchProgressView = observer(function BatchProgressView({ batch }: { batch: BatchRunStore }) {
  const { t } = useStore();
  const [retrying, setRetrying] = useState<BatchItemView | null>(null);
  const view = batch.view!;
  const total = view.items.length;
  const ended = batch.doneCount;
  const open = !batch.finished;
  const { succeeded, failed, cancelled } = view.counts;
  const retryCost = retrying ? tokensLabel(t, retrying.cost) : '';
  return (
    <div className="batch" data-testid="batch-view" data-status={view.status}>
      <div className="batch__head">
        <Badge tone={BATCH_TONES[view.status]}>{t(`client-tools.batch.status.${view.status}`)}</Badge>
        {/* Counted by state: a cancelled or failed item has ended but is not "done". */}
        <span data-testid="batch-done">
          {[
            t('client-tools.batch.done', { done: succeeded, total }),
            failed > 0 ? t('client-tools.batch.failedCount', { n: failed }) : null,
            cancelled > 0 ? t('client-tools.batch.cancelledCount', { n: cancelled }) : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </span>
        <span className="batch__cost" data-testid="batch-cost">
          {batchMoneyLabel(t, view.cost, view.refunded)}
        </span>
      </div>
      <ProgressBar
        value={total === 0 ? 0 : Math.round((ended / total) * 100)}
        label={t('client-tools.batch.progressLabel')}
      />
      <div className="batch__actions">
        {succeeded > 0 ? (
          <a
            className={`btn btn--${open ? 'secondary' : 'primary'} btn--md`}
            href={batch.zipUrl ?? undefined}
            download
            data-testid="batch-zip"
          >
            <Download aria-hidden="true" />
            <span>{t('client-tools.batch.downloadZip')}</span>
          </a>
        ) : null}
        {open ? (
          <Button
            variant="secondary"
            onClick={() => void batch.cancelAll()}
            busy={batch.cancelling}
            busyText={t('client-tools.job.cancelling')}
            data-testid="batch-cancel"
          >
            {t('client-tools.batch.cancelAll')}
          </Button>
        ) : null}
      </div>
      {batch.finished && view.refunded > 0 ? (
        <p className="notice notice--warning" role="status">
          {t('client-tools.batch.refunded', { cost: tokensLabel(t, view.refunded) })}
        </p>
      ) : null}
      {view.skipped.length > 0 ? (
        <div className="notice notice--warning batch__skipped" role="status" data-testid="batch-skipped">
          <p>{t('client-tools.batch.skipped', { n: view.skipped.length })}</p>
          <ul>
            {view.skipped.map((entry) => (
              <li key={entry.file_name}>
                <strong>{entry.file_name}</strong>: {entry.reasons.join(' ')}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ul className="batch__grid" aria-label={t('client-tools.batch.itemsLabel')}>
        {view.items.map((item) => (
          <BatchItemCard key={item.id} item={item} batch={batch} onRetry={setRetrying} />
        ))}
      </ul>
      <ConfirmDialog
        open={retrying !== null}
        title={t('client-tools.batch.retryTitle')}
        confirmLabel={t('client-tools.batch.retryConfirm', { cost: retryCost })}
        cancelLabel={t('client-tools.batch.retryKeep')}
        closeLabel={t('shell.common.close')}
        onCancel={() => setRetrying(null)}
        onConfirm={() => {
          const item = retrying;
          setRetrying(null);
          if (item) void batch.retry(item.id);
        }}
      >
        {retrying ? t('client-tools.batch.retryBody', { name: retrying.file_name, cost: retryCost }) : ''}
      </ConfirmDialog>
    </div>
  );
});

/** The canvas of an upload tool in batch mode: the choice and its price, the upload, then the live batch. */
export const BatchCanvas = observer(function BatchCanvas({
  batch,
  choice,
  unitCost,
  onRemove,
}: {
  batch: BatchRunStore;
  choice: BatchChoice | null;
  unitCost: number | undefined;
  /** Takes one chosen image out of the batch before it runs. */
  onRemove?(index: number): void;
}) {
  const { t } = useStore();
  if (batch.view) return <BatchProgressView batch={batch} />;
  return (
    <>
      {batch.phase === 'submitting' ? (
        <div className="job-status" data-testid="job-status" data-status="uploading">
          <p>{t('client-tools.job.uploading', { n: Math.round(batch.uploadFraction * 100) })}</p>
          <ProgressBar value={Math.round(batch.uploadFraction * 100)} label={t('client-tools.job.uploadLabel')} />
        </div>
      ) : null}
      {batch.badFiles.length > 0 ? (
        // The run panel says how many files were refused; this names each one and why.
        <div className="notice notice--error" data-testid="batch-bad-files">
          <ul>
            {batch.badFiles.map((f) => (
              <li key={f.name}>
                <strong>{f.name}</strong>: {f.reasons.join(' ')}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {choice ? <BatchChoiceView choice={choice} unitCost={unitCost} onRemove={onRemove} /> : null}
    </>
  );
});
