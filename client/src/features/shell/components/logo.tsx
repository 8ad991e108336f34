/** The product mark and name. */
export function Logo() {
  return (
    <span className="logo">
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="var(--color-accent)" />
        <path d="M8 22l6-8 4 5 3-3 3 6z" fill="#fff" />
        <circle cx="21" cy="11" r="2.5" fill="var(--color-success)" />
      </svg>
      <span className="logo__text">Image Studio</span>
    </span>
  );
}
