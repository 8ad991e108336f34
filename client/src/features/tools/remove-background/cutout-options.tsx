import { useEffect, useState } from 'react';
import type { JobView } from '@imagestudio/contracts';
import { Checkbox, Select } from '../../../components';
import { useStore } from '../../../stores';

/** The options of a plain cut-out: output format, mask only, or a background colour filled in. */
export function useCutoutOptions(shown: JobView | null) {
  const [format, setFormat] = useState<'png' | 'webp'>('png');
  const [useColor, setUseColor] = useState(false);
  const [color, setColor] = useState('#ffffff');
  const [maskOnly, setMaskOnly] = useState(false);

  // A job opened by URL, from projects or after a reload shows the options it ran with, not the defaults.
  useEffect(() => {
    const p = shown?.params;
    if (!p) return;
    if (p.output_format === 'png' || p.output_format === 'webp') setFormat(p.output_format);
    setMaskOnly(p.mask_only === true);
    const background = typeof p.background_color === 'string' ? p.background_color : null;
    setUseColor(background !== null);
    if (background) setColor(background);
    // Only when another job is shown: later edits of the options are the user's.
  }, [shown?.id]);

  const background = useColor && !maskOnly ? color : null;
  // The options as the API's form fields, for a single run and for a batch alike.
  const fields: Record<string, string> = {
    output_format: format,
    mask_only: String(maskOnly),
    ...(background ? { background_color: background } : {}),
  };
  return {
    values: { format, useColor, color, maskOnly },
    set: { format: setFormat, useColor: setUseColor, color: setColor, maskOnly: setMaskOnly },
    /** What makes two runs the same (the re-run check). */
    fingerprint: { format, background, maskOnly },
    fields,
  };
}

type CutoutOptions = ReturnType<typeof useCutoutOptions>;

/** The controls of the cut-out options. */
export function CutoutOptionsForm({ options }: { options: CutoutOptions }) {
  const { t } = useStore();
  const { values, set } = options;
  return (
    <>
      <Select
        label={t('client-tools.removeBg.format')}
        value={values.format}
        options={[
          { value: 'png', label: 'PNG' },
          { value: 'webp', label: 'WebP' },
        ]}
        onChange={(e) => set.format(e.target.value as 'png' | 'webp')}
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
