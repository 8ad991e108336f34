import './spinner.css';

/** An indeterminate spinner; `label` is read by screen readers. */
export function Spinner({ size = 20, label }: { size?: number; label?: string }) {
  return (
    <span
      className="spinner"
      style={{ width: size, height: size }}
      role={label ? 'status' : undefined}
      aria-label={label}
    >
      {label ? <span className="visually-hidden">{label}</span> : null}
    </span>
  );
}

/** A centred spinner filling a page area while it loads. */
export function PageSpinner({ label }: { label: string }) {
  return (
    <div className="page-spinner">
      <Spinner size={40} label={label} />
    </div>
  );
}
