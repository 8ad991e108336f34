import { useEffect, useState } from 'react';
import type { JobView } from '@imagestudio/contracts';
import { Checkbox, Select } from '../../../components';
import { useStore } from '../../../stores';
import { EDITOR_FORMATS, FORMAT_OPTIONS, type EditorFormat } from '../photo-editor/photo-settings';

type MattingModel = 'standard' | 'hq';

function isFormat(value: unknown): value is EditorFormat {
  return (EDITOR_FORMATS as readonly unknown[]).includes(value);
}

/** The options' own values, as the page keeps them across a token purchase. */
export interface CutoutValues {
  format: EditorFormat;
  useColor: boolean;
  color: string;
  maskOnly: boolean;
  model: MattingModel;
}

/**
 * The options of a plain cut-out: output format (those the editor offers too), mask only, or a background colour
 * filled in; and the model, where some live worker offers the operator's `hq` one. `restored`: the values kept
 * across a token purchase.
 */
export function useCutoutOptions(shown: JobView | null, restored?: Partial<CutoutValues> | null) {
  const { tools } = useStore();
  const hqOffered = tools.models('remove-background').includes('hq');
  const [model, setModel] = useState<MattingModel>('standard');
  const [format, setFormat] = useState<EditorFormat>('png');
  const [useColor, setUseColor] = useState(false);
  const [color, setColor] = useState('#ffffff');
  const [maskOnly, setMaskOnly] = useState(false);

  useEffect(() => {
    if (!restored) return;
    if (isFormat(restored.format)) setFormat(restored.format);
    if (typeof restored.useColor === 'boolean') setUseColor(restored.useColor);
    if (typeof restored.color === 'string') setColor(restored.color);
    if (typeof restored.maskOnly === 'boolean') setMaskOnly(restored.maskOnly);
    if (restored.model === 'hq' || restored.model === 'standard') setModel(restored.model);
  }, [restored]);

  // A job opened by URL, from projects or after a reload shows the options it ran with, not the defaults.
  useEffect(() => {
    const p = shown?.params;
    if (!p) return;
    if (isFormat(p.output_format)) setFormat(p.output_format);
    setMaskOnly(p.mask_only === true);
    const background = typeof p.background_color === 'string' ? p.background_color : null;
    setUseColor(background !== null);
    if (background) setColor(background);
    setModel(p.model === 'hq' ? 'hq' : 'standard');
    // Only when another job is shown: later edits of the options are the user's.
  }, [shown?.id]);

  const background = useColor && !maskOnly ? color : null;
  // hq only while offered: a choice kept from an older job falls back to the standard model when it is gone.
  const chosen: MattingModel = hqOffered ? model : 'standard';
  const modelFields: Record<string, string> = chosen === 'hq' ? { model: 'hq' } : {};
  // The options as the API's form fields, for a single run and for a batch alike.
  const fields: Record<string, string> = {
    output_format: format,
    mask_only: String(maskOnly),
    ...(background ? { background_color: background } : {}),
    ...modelFields,
  };
  return {
    values: { format, useColor, color, maskOnly, model: chosen, hqOffered },
    /** What the page keeps across a token purchase (the model as chosen, whether offered now or not). */
    kept: { format, useColor, color, maskOnly, model } satisfies CutoutValues,
    set: { format: setFormat, useColor: setUseColor, color: setColor, maskOnly: setMaskOnly, model: setModel },
    /** What makes two runs the same (the re-run check). */
    fingerprint: { format, background, maskOnly, model: chosen },
    fields,
    /** The model field alone, for a batch that takes the editor's fields instead. */
    modelFields,
  };
}

type CutoutOptions = ReturnType<typeof useCutoutOptions>;

/** The controls of the cut-out options. */
export function CutoutOptionsForm({ options }: { options: CutoutOptions }) {
  const { t } = useStore();
  const { values, set } = options;
  return (
    <>
      {values.hqOffered ? (
        <Select
          label={t('client-tools.removeBg.model')}
          value={values.model}
          options={[
            { value: 'standard', label: t('client-tools.removeBg.model.standard') },
            { value: 'hq', label: t('client-tools.removeBg.model.hq') },
          ]}
          onChange={(e) => set.model(e.target.value as MattingModel)}
          data-testid="matting-model"
        />
      ) : null}
      <Select
        label={t('client-tools.removeBg.format')}
        value={values.format}
        options={FORMAT_OPTIONS}
        onChange={(e) => set.format(e.target.value as EditorFormat)}
      />
      <Checkbox
        label={t('client-tools.removeBg.maskOnly')}
        checked={values.maskOnly}
        onChange={(e) => set.maskOnly(e.target.checked)}
      />
      <Checkbox
        label={t('client-tools.removeBg.useColor')}
        checked={values.useColor}
        disabled={values.maskOnly}
        onChange={(e) => set.useColor(e.target.checked)}
      />
      {values.useColor && !values.maskOnly ? (
        <label className="tool-form__color">
          <span>{t('client-tools.removeBg.color')}</span>
          <input type="color" value={values.color} onChange={(e) => set.color(e.target.value)} />
          <code>{values.color}</code>
        </label>
      ) : null}
    </>
  );
}
