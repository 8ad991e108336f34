import { Download } from 'lucide-react';
import type { BatchItemView } from '@imagestudio/contracts';
import { Modal } from '../../components';
import { ComparisonSlider } from '../../components/comparison-slider';
import { useStore } from '../../stores';

/**
 * A batch item's result, large: the before/after slider over its input (the server's WebP preview of it when
 * there is one: a HEIC, AVIF or TIFF, or a large photo) and result, and its download. Opened from the item's
 * thumbnail in the batch grid.
 */
export function BatchItemViewer({
  item,
  downloadName,
  onClose,
}: {
  item: BatchItemView;
  downloadName: string;
  onClose(): void;
}) {
  const { t } = useStore();
  const result = item.results[0];
  if (!result || !item.input_url) return null;
  return (
    <Modal
      open
      size="lg"
      title={item.file_name}
      onClose={onClose}
      closeLabel={t('client-tools.batch.viewer.close')}
      footer={
        <a className="btn btn--primary btn--md" href={result.url} download={downloadName}>
          <Download aria-hidden="true" />
          {t('client-tools.common.download')}
        </a>
      }
    >
      <div className="batch-viewer" data-testid="batch-viewer">
        <ComparisonSlider
          before={item.input_preview_url ?? item.input_url}
          after={result.url}
          beforeLabel={t('client-tools.batch.viewer.before')}
          afterLabel={t('client-tools.batch.viewer.after')}
          label={t('client-tools.batch.viewer.compare', { name: item.file_name })}
          aspect={result.width / result.height}
        />
      </div>
    </Modal>
  );
}

/**
 * A file name that wraps at its word boundaries: after "-", "_", "." and spaces, where a reader expects a
 * break, rather than between any two letters.
 */
export function WrappingName({ name }: { name: string }) {
  const parts = name.split(/(?<=[-_.\s])/);
  return (
    <>
      {parts.map((part, i) => (
        <span key={i}>
          {part}
          {i < parts.length - 1 ? <wbr /> : null}
        </span>
      ))}
    </>
  );
}
