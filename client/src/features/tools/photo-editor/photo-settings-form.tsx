import { Checkbox, Select, Slider } from '../../../components';
import { useT } from '../../../stores';
import { BackgroundFields } from './background-fields';
import {
  CANVAS_PRESETS,
  FORMAT_OPTIONS,
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

/**
 * The finishing settings: background swatches (transparent, white, black, a colour, an uploaded image, the photo's
 * own background blurred), crop to the subject with its margin, the canvas preset, the shadow (none, drop or
 * contact) and the format. The editor drives its live preview with them; a batch sends them with its request.
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
  const set = <K extends keyof PhotoSettings>(key: K, value: PhotoSettings[K]) =>
    onChange({ ...settings, [key]: value });
  return (
    <div className="photo-settings" data-testid="photo-settings">
      <BackgroundFields
        settings={settings}
        set={set}
        backgroundImage={backgroundImage}
        onBackgroundImage={onBackgroundImage}
      />
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
        options={FORMAT_OPTIONS}
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
