/** Client timings and limits, named once (docs/product-behaviour.md#timings-and-limits). */
export const TIMINGS = {
  apiTimeoutMs: 6000,
  toastMs: 3000,
  dropdownCloseDelayMs: 200,
  submitGuardAfterFailureMs: 300,
  submitGuardAfterSubmitMs: 500,
  unsupportedCountryToastMs: 500,
} as const;

export const LAYOUT = {
  /** Below this width the header shows the mobile menu. */
  mobileBreakpointPx: 768,
} as const;

export const LIMITS_UI = {
  phoneMaxLength: 25,
  cookieConsentDays: 365,
} as const;

/** localStorage keys and the consent cookie; browsers already hold values under these names. */
export const STORAGE_KEYS = {
  authSession: 'auth_session',
  /** Written by earlier client versions (which expected a bearer token the server never sent); only removed now. */
  token: 'token',
  currencyCode: 'currencyCode',
  currencySymbol: 'currencySymbol',
  languageId: 'languageId',
} as const;

export const COOKIE_CONSENT = 'cookie_consent';
