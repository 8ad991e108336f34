import './display.css';

/** Determinate when `value` (0-100) is given, indeterminate otherwise. */
export function ProgressBar({ value, label }: { value?: number; label: string }) {
  const determinate = typeof value === 'number';
  const clamped = determinate ? Math.max(0, Math.min(100, value)) : undefined;
  return (
    <div
      className={`progress${determinate ? '' : ' progress--indeterminate'}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
    >
      <div className="progress__bar" style={determinate ? { width: `${clamped}%` } : undefined} />
    </div>
  );
}
