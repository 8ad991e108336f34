import { forwardRef, useId, type SelectHTMLAttributes } from 'react';
import './field.css';

export interface SelectOption {
  value: string;
  label: string;
}

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  options: SelectOption[];
  /** Hide the label visually (it stays for screen readers). */
  hideLabel?: boolean;
  error?: string | null;
}

/** A native select with a label: keyboard and screen-reader behaviour come for free. */
export const Select = forwardRef<HTMLSelectElement, SelectProps>(function Select(
  { label, options, hideLabel, error, id, className, ...rest },
  ref,
) {
  const autoId = useId();
  const selectId = id ?? autoId;
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label className={hideLabel ? 'visually-hidden' : 'field__label'} htmlFor={selectId}>
        {label}
        {rest.required ? (
          <span className="field__required" aria-hidden="true">
            *
          </span>
        ) : null}
      </label>
      <select ref={ref} id={selectId} className="input" aria-invalid={error ? true : undefined} {...rest}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error ? (
        <span className="field__error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
});
