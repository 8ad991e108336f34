import { useId } from 'react';
import { observer } from 'mobx-react-lite';
import { Download } from 'lucide-react';
import { compositionDownloadName, type CompositionView, type JobView } from '@imagestudio/contracts';
import { formatFileSize } from '../../lib/format';
import { useStore } from '../../stores';
import { ResultThumb } from './result-thumb';

/** Format names as the editor's format choice writes them; they are the same in every language. */
const FORMAT_LABELS: Record<CompositionView['format'], string> = {
  png: 'PNG',
  webp: 'WebP',
  avif: 'AVIF',
  jpeg: 'JPEG',
};

/**
 * The pictures made from a background removal in the editor (the job view's `compositions`), under the job in
 * My Projects and Request History: each one's preview, format, size and its own download, so a finished picture is
 * found again without rebuilding its settings. Nothing when the job has none (other tools, files gone).
 */
export const CompositionsList = observer(function CompositionsList({
  job,
  compact = false,
}: {
  job: JobView;
  /** A narrow slot (a project card): the download shows its icon only, leaving the line to the picture's details. */
  compact?: boolean;
}) {
  const { t } = useStore();
  const titleId = useId();
  const pictures = job.compositions ?? [];
  if (pictures.length === 0) return null;
  return (
    <div className="compositions" data-testid="compositions">
      <p className="compositions__title" id={titleId}>
        {t('client-tools.compositions.title', { n: pictures.length })}
      </p>
      <ul className="compositions__list" aria-labelledby={titleId}>
        {pictures.map((picture, index) => {
          const values = { format: FORMAT_LABELS[picture.format], width: picture.width, height: picture.height };
          return (
            <li className="compositions__item" data-testid="composition" key={`${picture.created_at}-${index}`}>
              <span className="compositions__thumb checkerboard">
                <ResultThumb result={picture} alt={t('client-tools.compositions.thumbAlt', values)} size={48} />
              </span>
              <span className="compositions__details">
                {t('client-tools.compositions.details', { ...values, size: formatFileSize(picture.bytes) })}
              </span>
              <a
                className="btn btn--ghost btn--sm"
                href={picture.url}
                download={compositionDownloadName(job, picture)}
                aria-label={t('client-tools.compositions.downloadLabel', values)}
                title={compact ? t('client-tools.compositions.downloadLabel', values) : undefined}
              >
                <Download aria-hidden="true" />
                {compact ? null : <span>{t('client-tools.common.download')}</span>}
              </a>
            </li>
          );
        })}
      </ul>
    </div>
  );
});
