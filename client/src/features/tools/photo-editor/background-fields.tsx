import { useId } from 'react';
import { Slider } from '../../../components';
import { useT } from '../../../stores';
import { BACKGROUNDS, type PhotoSettings } from './photo-settings';

/**
 * The background part of the finishing settings: the swatches, and what the chosen one needs (a colour, an image
 * to upload, how much to blur the photo's own background).
 */
export function BackgroundFields({
  settings,
  set,
  backgroundImage,
  onBackgroundImage,
}: {
  settings: PhotoSettings;
  set<K extends keyof PhotoSettings>(key: K, value: PhotoSettings[K]): void;
  backgroundImage: File | null;
  onBackgroundImage(file: File | null): void;
}) {
  const t = useT();
  const id = useId();
  const imageMissing = settings.background === 'image' && !backgroundImage;
  return (
    <>
      <div className="field">
        <span className="field__label" id={`${id}-bg`}>
          {t('client-tools.editor.background')}
        </span>
        <div className="photo-settings__swatches" role="group" aria-labelledby={`${id}-bg`}>
          {BACKGROUNDS.map((bg) => (
            <button
              key={bg}
              type="button"
              className={`photo-settings__swatch photo-settings__swatch--${bg}`}
              aria-pressed={settings.background === bg}
              onClick={() => set('background', bg)}
            >
              {t(`client-tools.editor.bg.${bg}`)}
            </button>
          ))}
        </div>
      </div>
      {settings.background === 'color' ? (
        <label className="tool-form__color">
          <span>{t('client-tools.editor.colorPicker')}</span>
          <input type="color" value={settings.color} onChange={(e) => set('color', e.target.value)} />
          <code>{settings.color}</code>
        </label>
      ) : null}
      {settings.background === 'image' ? (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-image`}>
            {t('client-tools.editor.imagePicker')}
          </label>
          <input
            id={`${id}-image`}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            aria-describedby={imageMissing ? `${id}-image-hint` : undefined}
            onChange={(e) => onBackgroundImage(e.target.files?.[0] ?? null)}
          />
          {imageMissing ? (
            <span className="field__help" id={`${id}-image-hint`}>
              {t('client-tools.editor.imageNeeded')}
            </span>
          ) : null}
        </div>
      ) : null}
      {settings.background === 'blur' ? (
        <Slider
          label={t('client-tools.editor.blur')}
          min={1}
          max={100}
          step={1}
          value={settings.blur}
          output={settings.blur}
          onValueChange={(v) => set('blur', v)}
        />
      ) : null}
    </>
  );
}
