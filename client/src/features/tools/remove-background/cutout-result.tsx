import { useState } from 'react';
import { observer } from 'mobx-react-lite';
import { isDoubtfulCutout, type JobView } from '@imagestudio/contracts';
import { ComparisonSlider } from '../../../components/comparison-slider';
import { useStore } from '../../../stores';
import { PhotoEditor } from '../photo-editor/photo-editor';
import { DownloadLink } from '../result-image';
import { BackdropPicker, backdropColor, type Backdrop } from './backdrop-picker';

/**
 * A finished cut-out beside the original in a comparison slider over a backdrop of the user's choice (view
 * only), its download, and under it the finishing editor.
 */
export const CutoutResult = observer(function CutoutResult({ job, preview }: { job: JobView; preview: string }) {
  const { t } = useStore();
  const [backdrop, setBackdrop] = useState<Backdrop>('checker');
  const [previewColor, setPreviewColor] = useState('#19c3a6');
  const result = job.results[0]!;
  // A filled or mask result is opaque, and so is a JPEG (flattened on white): nothing would show through a backdrop.
  const transparent = !job.params.background_color && !job.params.mask_only && result.format !== 'jpeg';
  return (
    <>
      <figure className="result-single" data-testid="result">
        {transparent ? (
          <BackdropPicker value={backdrop} color={previewColor} onChange={setBackdrop} onColor={setPreviewColor} />
        ) : null}
        <ComparisonSlider
          before={preview}
          after={result.url}
          beforeLabel={t('client-tools.removeBg.before')}
          afterLabel={t('client-tools.removeBg.after')}
          label={t('client-tools.removeBg.compare')}
          aspect={result.width / result.height}
          backdrop={transparent ? backdropColor(backdrop, previewColor) : null}
        />
        <figcaption className="result-card__actions">
          <DownloadLink job={job} />
        </figcaption>
      </figure>
      {job.params.mask_only ? null : (
        <>
          {/* The worker's cut-out confidence (contracts' cutoutConfidence): the brush below is the fix. */}
          {isDoubtfulCutout(job.cutout_confidence) ? (
            <p className="notice notice--warning" role="status" data-testid="cutout-doubtful">
              {t('client-tools.removeBg.doubtful')}
            </p>
          ) : null}
          <PhotoEditor job={job} />
        </>
      )}
    </>
  );
});
