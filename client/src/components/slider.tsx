import { useId, type CSSProperties, type InputHTMLAttributes, type ReactNode } from 'react';
import './slider.css';

interface SliderProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'onChange'> {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onValueChange: (value: number) => void;
  /** What assistive technology reads instead of the raw value ("200.9 tokens"). */
  valueText?: string;
  /** Shown beside the label (the current value, formatted). */
  output?: ReactNode;
}

/** A labelled native range input: keyboard, touch and screen readers work without extra code. */
export function Slider({
  label,
  value,
  min,
  max,
  step,
  onValueChange,
  valueText,
  output,
  id,
  className,
  ...rest
}: SliderProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const filled = max > min ? ((value - min) / (max - min)) * 100 : 0;
  return (
    <div className={['field', 'slider', className].filter(Boolean).join(' ')}>
      <div className="slider__head">
        <label className="field__label" htmlFor={inputId}>
          {label}
        </label>
        {output ? (
          <output htmlFor={inputId} className="slider__output">
            {output}
          </output>
        ) : null}
      </div>
      <input
        id={inputId}
        type="range"
        className="slider__input"
        min={min}
        max={max}
        step={step}
        value={value}
        aria-valuetext={valueText}
        style={{ '--slider-fill': `${filled}%` } as CSSProperties}
        onChange={(event) => onValueChange(Number(event.target.value))}
        {...rest}
      />
    </div>
  );
}
