import { useId } from 'react';
import { Checkbox, Select, Slider } from '../../../components';
import { useT } from '../../../stores';
import {
  BACKGROUNDS,
  CANVAS_PRESETS,
  EDITOR_FORMATS,
  LOSSY_FORMATS,
  MARGIN_MAX,
  SHADOWS,
  type CanvasPreset,
  type EditorFormat,
  type PhotoSettings,
  type ShadowChoice,
} from './photo-settings';

const SHADOW_LABELS = {
  none: 'client-tools.editor.shadowNone',
  drop: 'client-tools.editor.shadowDrop',
  contact: 'client-tools.editor.shadowContact',
} as const satisfies Record<ShadowChoice, string>;

const FORMAT_LABELS: Record<EditorFormat, string> = { png: 'PNG', webp: 'WebP', avif: 'AVIF', jpeg: 'JPEG' };

/**
 * The finishing settings: background swatches (transparent, white, black, a colour, an uploaded image, the photo's
 * own background blurred), crop to the subject with its margin, the canvas preset, the shadow (none, drop or
 * contact) and the format. The
 * editor drives its live preview with them; a batch sends them with its request.
 */
export function PhotoSettingsForm({
  settings,
  onChange,
  backgroundImage,
  onBackgroundImage,
}: {
  settings: PhotoSettings;
  onChange(next: PhotoSettings): void;
  backgroundImage: File | null;
  onBackgroundImage(file: File | null): void;
}) {
  const t = useT();
  const id = useId();
  const set = <K extends keyof PhotoSettings>(key: K, value: PhotoSettings[K]) =>
    onChange({ ...settings, [key]: value });
  const imageMissing = settings.background === 'image' && !backgroundImage;
  return (
    <div className="photo-settings" data-testid="photo-settings">
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
      <Checkbox
        label={t('client-tools.editor.crop')}
        checked={settings.cropToSubject}
        onChange={(e) => set('cropToSubject', e.target.checked)}
      />
      <Slider
        label={t('client-tools.editor.margin')}
        min={0}
        max={MARGIN_MAX}
        step={1}
        value={settings.margin}
        output={`${settings.margin}%`}
        valueText={`${settings.margin}%`}
        onValueChange={(v) => set('margin', v)}
      />
      <Select
        label={t('client-tools.editor.canvas')}
        value={settings.preset}
        options={CANVAS_PRESETS.map((preset) => ({ value: preset, label: t(`client-tools.editor.preset.${preset}`) }))}
        onChange={(e) => set('preset', e.target.value as CanvasPreset)}
      />
      <Select
        label={t('client-tools.editor.shadow')}
        value={settings.shadow}
        options={SHADOWS.map((shadow) => ({ value: shadow, label: t(SHADOW_LABELS[shadow]) }))}
        onChange={(e) => set('shadow', e.target.value as ShadowChoice)}
      />
      {settings.shadow !== 'none' ? (
        <Slider
          label={t('client-tools.editor.shadowStrength')}
          min={0}
          max={100}
          step={5}
          value={settings.shadowStrength}
          output={`${settings.shadowStrength}%`}
          valueText={`${settings.shadowStrength}%`}
          onValueChange={(v) => set('shadowStrength', v)}
        />
      ) : null}
      <Select
        label={t('client-tools.editor.format')}
        value={settings.format}
        options={EDITOR_FORMATS.map((format) => ({ value: format, label: FORMAT_LABELS[format] }))}
        onChange={(e) => set('format', e.target.value as EditorFormat)}
      />
      {LOSSY_FORMATS.includes(settings.format) ? (
        <Slider
          label={t('client-tools.editor.quality')}
          min={1}
          max={100}
          step={1}
          value={settings.quality}
          output={settings.quality}
          onValueChange={(v) => set('quality', v)}
        />
      ) : null}
    </div>
  );
}
