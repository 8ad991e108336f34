import { useId } from 'react';
import { LIMITS } from '@imagestudio/contracts';
import { Select } from '../../components';

/** The formats the upload tools write besides background removal (which adds AVIF: photo-editor/photo-settings). */
export type OutputFormat = 'png' | 'webp' | 'jpeg';

const OUTPUT_FORMAT_OPTIONS: Array<{ value: OutputFormat; label: string }> = [
  { value: 'png', label: 'PNG' },
  { value: 'webp', label: 'WebP' },
  { value: 'jpeg', label: 'JPEG' },
];

/** A tool's "Output format" select: PNG, WebP or JPEG. */
export function OutputFormatSelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: OutputFormat;
  onChange: (format: OutputFormat) => void;
}) {
  return (
    <Select
      label={label}
      value={value}
      options={OUTPUT_FORMAT_OPTIONS}
      onChange={(e) => onChange(e.target.value as OutputFormat)}
    />
  );
}

/** A tool's prompt: a labelled text area as long as the images API takes. */
export function PromptField({
  label,
  placeholder,
  value,
  onChange,
  rows = 2,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (prompt: string) => void;
  rows?: number;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="input tool-form__prompt"
        rows={rows}
        maxLength={LIMITS.promptMaxLength}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
