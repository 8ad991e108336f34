/** Card brand marks drawn as simple SVGs of our own (no remote images). */
export function CardBrands({ label }: { label: string }) {
  return (
    <ul className="card-brands" aria-label={label}>
      <li>
        <svg viewBox="0 0 48 32" width="48" height="32" role="img" aria-label="Visa">
          <rect width="48" height="32" rx="4" fill="#ffffff" />
          <text
            x="24"
            y="21"
            textAnchor="middle"
            fontFamily="system-ui, sans-serif"
            fontWeight="700"
            fontStyle="italic"
            fontSize="13"
            fill="#1a1f71"
          >
            VISA
          </text>
        </svg>
      </li>
      <li>
        <svg viewBox="0 0 48 32" width="48" height="32" role="img" aria-label="Mastercard">
          <rect width="48" height="32" rx="4" fill="#ffffff" />
          <circle cx="19" cy="16" r="8" fill="#eb001b" />
          <circle cx="29" cy="16" r="8" fill="#f79e1b" fillOpacity="0.9" />
        </svg>
      </li>
      <li>
        <svg viewBox="0 0 48 32" width="48" height="32" role="img" aria-label="American Express">
          <rect width="48" height="32" rx="4" fill="#2e77bc" />
          <text
            x="24"
            y="20"
            textAnchor="middle"
            fontFamily="system-ui, sans-serif"
            fontWeight="700"
            fontSize="10"
            fill="#ffffff"
          >
            AMEX
          </text>
        </svg>
      </li>
      <li>
        <svg viewBox="0 0 48 32" width="48" height="32" role="img" aria-label="Maestro">
          <rect width="48" height="32" rx="4" fill="#ffffff" />
          <circle cx="19" cy="16" r="8" fill="#0099df" />
          <circle cx="29" cy="16" r="8" fill="#eb001b" fillOpacity="0.85" />
        </svg>
      </li>
    </ul>
  );
}
