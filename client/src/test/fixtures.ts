import {
  defaultSettings,
  type BatchAccepted,
  type CountryView,
  type CurrencyView,
  type DepositStatusView,
  type JobView,
  type LanguageView,
  type PackView,
  type ProfileView,
  type Settings,
  type StaticPageView,
} from '@imagestudio/contracts';

/**
 * Replies of the real API's shapes for unit tests, typed against the contracts so a fixture cannot drift
 * from what the server sends.
 */

/** A signed-in user's profile; override what a test cares about. */
export function profileFixture(overrides: Partial<ProfileView> = {}): ProfileView {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Ada',
    surname: 'Lovelace',
    email: 'ada@example.test',
    phone: '',
    phoneE164: null,
    balance: 12.5,
    avatarUrl: null,
    created_at: '2026-01-02T03:04:05.000Z',
    country: null,
    city: '',
    address: '',
    post_code: '',
    email_verified: true,
    ...overrides,
  };
}

export const languagesFixture: LanguageView[] = [
  { id: 1, code: 'en', title: 'English', default: 1 },
  { id: 2, code: 'de', title: 'Deutsch', default: 0 },
];

export const currenciesFixture: CurrencyView[] = [
  { code: 'EUR', value: 1, symbol: '€', default: 1 },
  { code: 'USD', value: 1.1, symbol: '$', default: 0 },
];

/** The settings' defaults with the company and support address tests look for. */
export function settingsFixture(overrides: Partial<Settings> = {}): Settings {
  return { ...defaultSettings(), company_name: 'Image Studio GmbH', support_email: 'help@example.test', ...overrides };
}

export const staticPagesFixture: StaticPageView[] = [
  { id: 1, slug: 'terms', title: 'Terms', content: '<p>Terms</p>', is_terms: 1, is_privacy: 0 },
  { id: 2, slug: 'cookie-policy', title: 'Cookie policy', content: '<p>Cookies</p>', is_terms: 0, is_privacy: 0 },
];

export const packsFixture: PackView[] = [
  { id: 1, title: 'Starter', description: '', price: 0, credits: 10, saving: 0 },
  { id: 2, title: 'Pro', description: '', price: 9.99, credits: 100, saving: 0 },
];

export const countriesFixture: CountryView[] = [
  { id: 1, title: 'Germany', iso: 'DE' },
  { id: 2, title: 'United States', iso: 'US' },
];

/** One job as GET /api/jobs/{id} answers: a finished background removal without results; override the rest. */
export function jobFixture(overrides: Partial<JobView> & { id: string }): JobView {
  return {
    tool: 'remove-background',
    status: 'succeeded',
    progress: 100,
    stage: null,
    queue_position: null,
    eta_seconds: null,
    params: {},
    cost: 1,
    refunded: false,
    error: null,
    input_name: 'cat.png',
    input_url: 'https://s3/in.png',
    input_preview_url: null,
    results: [],
    created_at: '2026-11-24T10:00:00Z',
    started_at: null,
    finished_at: null,
    deleted: false,
    expired: false,
    batch_id: null,
    cutout_confidence: null,
    ...overrides,
  };
}

/** A batch just accepted (202 from POST /api/batches): two background removals unless overridden. */
export function batchAcceptedFixture(overrides: Partial<BatchAccepted> = {}): BatchAccepted {
  return {
    id: 'b1',
    tool: 'remove-background',
    status: 'queued',
    cost: 2,
    created_at: '2026-11-24T10:00:00Z',
    items: [],
    skipped: [],
    ...overrides,
  };
}

/** Where a payment stands, as GET /api/deposit/status/{id} answers: a 100-token custom amount unless overridden. */
export function depositStatusFixture(
  overrides: Partial<DepositStatusView> & Pick<DepositStatusView, 'id' | 'status'>,
): DepositStatusView {
  return {
    tokens: 100,
    pack_id: null,
    amount: 10,
    currency: 'EUR',
    created_at: '2026-11-24T10:00:00Z',
    ...overrides,
  };
}
