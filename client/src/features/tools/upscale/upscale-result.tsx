import { useState } from 'react';
import type { JobResultView, JobView } from '@imagestudio/contracts';
import { ComparisonSlider } from '../../../components/comparison-slider';
import { useStore } from '../../../stores';
import { DownloadLink } from '../result-image';
import { ZoomLens } from './zoom-lens';

/** The upscaled result over its input: a before/after slider or the zoom lens, its size and its download. */
export function UpscaleResult({ result, before, job }: { result: JobResultView; before: string; job: JobView }) {
  const { t } = useStore();
  const [view, setView] = useState<'compare' | 'lens'>('compare');
  return (
    <figure className="result-single" data-testid="result">
      <div className="segmented" role="group">
        <button type="button" aria-pressed={view === 'compare'} onClick={() => setView('compare')}>
          {t('client-tools.upscale.compareTab')}
        </button>
        <button type="button" aria-pressed={view === 'lens'} onClick={() => setView('lens')}>
          {t('client-tools.upscale.lens')}
        </button>
      </div>
      {view === 'compare' ? (
        <ComparisonSlider
          before={before}
          after={result.url}
          beforeLabel={t('client-tools.upscale.before')}
          afterLabel={t('client-tools.upscale.after')}
          label={t('client-tools.upscale.compare')}
          aspect={result.width / result.height}
        />
      ) : (
        <ZoomLens src={result.url} alt={t('client-tools.upscale.after')} naturalWidth={result.width} />
      )}
      <figcaption className="result-card__actions">
        <span className="result-single__size">
          {t('client-tools.upscale.resultSize', { w: result.width, h: result.height })}
        </span>
        <DownloadLink job={job} />
      </figcaption>
    </figure>
  );
}
