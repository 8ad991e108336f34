import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { ImageUp } from 'lucide-react';
import { LIMITS } from '@imagestudio/contracts';
import { useStore } from '../../stores';
import { isZipFile } from './zip-images';
import { batchCount, type UploadState } from './use-upload';

const PHONE_IMAGE_NAME = /\.(heic|heif|avif|tiff?)$/i;

/** The image and ZIP files among dropped, pasted or picked items (a file without a type may still be an image). */
/** The image types the picker offers (a batch zone also takes a ZIP). */
const IMAGE_TYPES =
  'image/jpeg,image/png,image/webp,image/avif,image/tiff,image/heic,image/heif,.avif,.tif,.tiff,.heic,.heif';

function imageFiles(files: FileList | null | undefined): File[] {
  if (!files) return [];
  const all = Array.from(files);
  // Some systems give a HEIC or AVIF a generic type (application/octet-stream): its name says what it is.
  const images = all.filter(
    (f) => f.type.startsWith('image/') || f.type === '' || PHONE_IMAGE_NAME.test(f.name) || isZipFile(f),
  );
  return images.length > 0 ? images : all.slice(0, 1);
}

/** True while a drag carries files (not text or a link dragged from the page). */
function carriesFiles(event: globalThis.DragEvent | DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/**
 * Where an image comes in: the file picker (several files allowed), a drop anywhere on the page, or a
 * paste anywhere on the page. Several images, or a ZIP of them, make a batch. Shows the client check's
 * message before anything is uploaded. A `single` zone (a tool that runs on one photo only) takes one image:
 * the first of several.
 */
export const UploadZone = observer(function UploadZone({
  upload,
  disabled,
  single = false,
}: {
  upload: UploadState;
  disabled?: boolean;
  single?: boolean;
}) {
  const { t } = useStore();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const take = (files: File[]) => (single ? upload.choose(files[0]!) : upload.chooseMany(files));

  useEffect(() => {
    if (disabled) return;
    const onPaste = (event: ClipboardEvent) => {
      const files = imageFiles(event.clipboardData?.files);
      if (files.length > 0) {
        event.preventDefault();
        take(files);
      }
    };
    // A drop anywhere on the page counts; the browser would otherwise open the image in place of the app.
    let depth = 0;
    const onEnter = (event: globalThis.DragEvent) => {
      if (!carriesFiles(event)) return;
      depth += 1;
      setOver(true);
    };
    const onLeave = (event: globalThis.DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const onOver = (event: globalThis.DragEvent) => {
      if (carriesFiles(event)) event.preventDefault();
    };
    const onDrop = (event: globalThis.DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth = 0;
      setOver(false);
      const files = imageFiles(event.dataTransfer?.files);
      if (files.length > 0) take(files);
    };
    document.addEventListener('paste', onPaste);
    document.addEventListener('dragenter', onEnter);
    document.addEventListener('dragleave', onLeave);
    document.addEventListener('dragover', onOver);
    document.addEventListener('drop', onDrop);
    return () => {
      document.removeEventListener('paste', onPaste);
      document.removeEventListener('dragenter', onEnter);
      document.removeEventListener('dragleave', onLeave);
      document.removeEventListener('dragover', onOver);
      document.removeEventListener('drop', onDrop);
      setOver(false);
    };
  }, [upload, disabled, single]);

  const failed = upload.batch ? upload.batch.problem : upload.problem;
  const problem = failed ? t(failed.key, failed.vars) : null;
  return (
    <div className="field">
      <div
        className={`upload-zone${over ? ' upload-zone--over' : ''}${problem ? ' upload-zone--error' : ''}`}
        data-testid="upload-zone"
      >
        <ImageUp aria-hidden="true" />
        <p>
          {t('client-tools.upload.drop')}{' '}
          <label htmlFor={inputId} className="upload-zone__browse">
            {upload.file || upload.batch ? t('client-tools.upload.replace') : t('client-tools.upload.browse')}
          </label>
        </p>
        <input
          ref={input}
          id={inputId}
          className="visually-hidden"
          type="file"
          multiple={!single}
          accept={single ? IMAGE_TYPES : `${IMAGE_TYPES},.zip,application/zip`}
          disabled={disabled}
          aria-label={t('client-tools.upload.label')}
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            if (files.length > 0) take(files);
            e.target.value = '';
          }}
        />
        <p className="upload-zone__hint">
          {upload.checking || upload.batch?.checking
            ? t('client-tools.upload.checking')
            : upload.batch
              ? batchHint(upload, t)
              : upload.file && upload.facts?.width
                ? t('client-tools.upload.selected', {
                    name: upload.file.name,
                    w: upload.facts.width,
                    h: upload.facts.height ?? 0,
                  })
                : `${t('client-tools.upload.hint', { mb: LIMITS.uploadMaxBytes / 1024 / 1024, mp: LIMITS.uploadMaxPixels / 1e6 })}${single ? '' : ` ${t('client-tools.upload.batchHint')}`}`}
        </p>
      </div>
      {over ? (
        <div className="drop-overlay" aria-hidden="true">
          <p>{t('client-tools.upload.dropAnywhere')}</p>
        </div>
      ) : null}
      {problem ? (
        <span className="field__error" role="alert" data-testid="upload-error">
          {problem}
        </span>
      ) : null}
    </div>
  );
});

/** "3 images chosen for a batch" or "photos.zip - 12 images". */
function batchHint(upload: UploadState, t: ReturnType<typeof useStore>['t']): string {
  const batch = upload.batch!;
  const count = batchCount(batch);
  if (batch.archive) {
    return count === null
      ? t('client-tools.batch.zipUnread', { name: batch.archive.file.name })
      : t('client-tools.batch.zipChosen', { name: batch.archive.file.name, n: count });
  }
  return t('client-tools.batch.imagesChosen', { n: count ?? 0 });
}
