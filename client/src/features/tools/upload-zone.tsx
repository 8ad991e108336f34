import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { ImageUp } from 'lucide-react';
import { LIMITS } from '@imagestudio/contracts';
import { useStore } from '../../stores';
import type { UploadState } from './use-upload';

/** First image file among dropped or pasted items. */
function firstImage(files: FileList | null | undefined): File | null {
  if (!files) return null;
  return Array.from(files).find((f) => f.type.startsWith('image/') || f.type === '') ?? files[0] ?? null;
}

/**
 * Where an image comes in: drag and drop, the file picker, or paste anywhere on the page. Shows the
 * client check's message before anything is uploaded.
 */
export const UploadZone = observer(function UploadZone({ upload, disabled }: { upload: UploadState; disabled?: boolean }) {
  const { t } = useStore();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  useEffect(() => {
    if (disabled) return;
    const onPaste = (event: ClipboardEvent) => {
      const file = firstImage(event.clipboardData?.files);
      if (file) {
        event.preventDefault();
        upload.choose(file);
      }
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [upload, disabled]);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = firstImage(event.dataTransfer.files);
    if (file && !disabled) upload.choose(file);
  };

  const problem = upload.problem ? t(upload.problem.key, upload.problem.vars) : null;
  return (
    <div className="field">
      <div
        className={`upload-zone${over ? ' upload-zone--over' : ''}${problem ? ' upload-zone--error' : ''}`}
        data-testid="upload-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <ImageUp aria-hidden="true" />
        <p>
          {t('client-tools.upload.drop')}{' '}
          <label htmlFor={inputId} className="upload-zone__browse">
            {upload.file ? t('client-tools.upload.replace') : t('client-tools.upload.browse')}
          </label>
        </p>
        <input
          ref={input}
          id={inputId}
          className="visually-hidden"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          disabled={disabled}
          aria-label={t('client-tools.upload.label')}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) upload.choose(file);
            e.target.value = '';
          }}
        />
        <p className="upload-zone__hint">
          {upload.checking
            ? t('client-tools.upload.checking')
            : upload.file && upload.facts?.width
              ? t('client-tools.upload.selected', { name: upload.file.name, w: upload.facts.width, h: upload.facts.height ?? 0 })
              : t('client-tools.upload.hint', { mb: LIMITS.uploadMaxBytes / 1024 / 1024, mp: LIMITS.uploadMaxPixels / 1e6 })}
        </p>
      </div>
      {problem ? (
        <span className="field__error" role="alert" data-testid="upload-error">
          {problem}
        </span>
      ) : null}
    </div>
  );
});
