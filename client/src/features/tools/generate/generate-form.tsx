import { useId, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { ChevronDown } from 'lucide-react';
import type { StylePreset } from '@imagestudio/contracts';
import { Select, TextField } from '../../../components';
import { useStore } from '../../../stores';
import { styleLabel } from '../../../lib/catalog-text';

export interface GenerateFormValues {
  prompt: string;
  count: number;
  size: string;
  style: string;
  negativePrompt: string;
  seed: string;
}

export function emptyGenerateForm(size: string): GenerateFormValues {
  return { prompt: '', count: 1, size, style: 'none', negativePrompt: '', seed: '' };
}

/** True when the seed field holds something other than empty or a whole number 0..2^32-1. */
export function seedProblem(seed: string): boolean {
  if (seed.trim() === '') return false;
  return !/^\d+$/.test(seed.trim()) || Number(seed) > 2 ** 32 - 1;
}

/** The JSON body of POST /api/tools/generate. */
export function generateBody(form: GenerateFormValues, sizes: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {
    prompt: form.prompt.trim(),
    count: form.count,
    size: sizes.includes(form.size) ? form.size : sizes[0],
  };
  if (form.style !== 'none') body.style = form.style;
  if (form.negativePrompt.trim()) body.negative_prompt = form.negativePrompt.trim();
  if (form.seed.trim()) body.seed = Number(form.seed);
  return body;
}

interface GenerateFormProps {
  values: GenerateFormValues;
  onChange(values: GenerateFormValues): void;
  sizes: string[];
  styles: readonly StylePreset[];
  disabled: boolean;
  maxPrompt: number;
}

/** Prompt with its character counter, count 1-4, size, style preset and the advanced options. */
export const GenerateForm = observer(function GenerateForm({
  values,
  onChange,
  sizes,
  styles,
  disabled,
  maxPrompt,
}: GenerateFormProps) {
  const { languages, t } = useStore();
  const promptId = useId();
  const [advanced, setAdvanced] = useState(false);
  const set = (patch: Partial<GenerateFormValues>) => onChange({ ...values, ...patch });
  return (
    <fieldset className="tool-form" disabled={disabled}>
      <div className="field">
        <label className="field__label" htmlFor={promptId}>
          {t('client-tools.generate.prompt')}
          <span className="field__required" aria-hidden="true">
            *
          </span>
        </label>
        <textarea
          id={promptId}
          className="input tool-form__prompt"
          rows={5}
          maxLength={maxPrompt}
          value={values.prompt}
          placeholder={t('client-tools.generate.promptPlaceholder')}
          aria-describedby={`${promptId}-counter`}
          onChange={(e) => set({ prompt: e.target.value })}
        />
        <span id={`${promptId}-counter`} className="field__help tool-form__counter" data-testid="prompt-counter">
          {t('client-tools.generate.counter', { n: values.prompt.length, max: maxPrompt })}
        </span>
      </div>
      <div className="tool-form__row">
        <Select
          label={t('client-tools.generate.count')}
          value={String(values.count)}
          options={[1, 2, 3, 4].map((n) => ({ value: String(n), label: String(n) }))}
          onChange={(e) => set({ count: Number(e.target.value) })}
        />
        <Select
          label={t('client-tools.generate.size')}
          value={values.size}
          options={sizes.map((s) => ({ value: s, label: s.replace('x', ' x ') }))}
          onChange={(e) => set({ size: e.target.value })}
        />
      </div>
      <Select
        label={t('client-tools.generate.style')}
        value={values.style}
        options={styles.map((s) => ({ value: s.id, label: styleLabel(languages.catalogText, s) }))}
        onChange={(e) => set({ style: e.target.value })}
      />
      <button
        type="button"
        className="tool-form__toggle"
        aria-expanded={advanced}
        onClick={() => setAdvanced(!advanced)}
      >
        <ChevronDown aria-hidden="true" />
        {t('client-tools.generate.advanced')}
      </button>
      {advanced ? (
        <div className="tool-form__advanced">
          <TextField
            label={t('client-tools.generate.negative')}
            help={t('client-tools.generate.negativeHelp')}
            value={values.negativePrompt}
            maxLength={maxPrompt}
            onChange={(e) => set({ negativePrompt: e.target.value })}
          />
          <TextField
            label={t('client-tools.generate.seed')}
            help={t('client-tools.generate.seedHelp')}
            inputMode="numeric"
            value={values.seed}
            error={seedProblem(values.seed) ? t('client-tools.generate.seedInvalid') : null}
            onChange={(e) => set({ seed: e.target.value })}
          />
        </div>
      ) : null}
    </fieldset>
  );
});
