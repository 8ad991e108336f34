import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import type { PaymentMethod } from '@imagestudio/contracts';
import { ApiRequestError } from '../../../lib/api/api-error';
import type { RootStore } from '../../../stores/root-store';
import { checkBilling, EMPTY_BILLING, type BillingField, type BillingForm } from './top-up-validation';

/** Server field names of POST /api/deposit/checkout that the form shows beside a field. */
const FORM_FIELDS = new Set<string>(Object.keys(EMPTY_BILLING));

/** Where the browser goes after checkout; a seam so unit tests can watch instead of leaving the page. */
export type ExternalNavigate = (url: string) => void;

const browserNavigate: ExternalNavigate = (url) => window.location.assign(url);

/**
 * The Confirm Information modal: billing form, payment method, client checks,
 * POST /api/deposit/checkout, server field errors per field, and the redirect to the payment page.
 */
export class CheckoutStore {
  form: BillingForm = { ...EMPTY_BILLING };
  /** ISO code of the phone input's country dropdown. */
  phoneCountry: string | undefined = undefined;
  saveInfo = false;
  paymentMethodId: number | null = null;
  fieldErrors: Partial<Record<BillingField, string>> = {};
  generalError: string | null = null;
  preparing = false;
  submitting = false;

  /** Leaves the app for the payment page (replaceable in tests). */
  navigateAway: ExternalNavigate = browserNavigate;

  constructor(private readonly root: RootStore) {
    makeAutoObservable<CheckoutStore, 'root'>(this, { root: false, navigateAway: false });
  }

  get paymentMethods(): PaymentMethod[] {
    return this.root.settings.settings?.payment_methods ?? [];
  }

  get paymentMethod(): PaymentMethod | undefined {
    return this.paymentMethods.find((m) => m.id === this.paymentMethodId);
  }

  /** The account's email: when present the field is disabled and the server uses it. */
  get accountEmail(): string {
    return this.root.profile.profile?.email ?? '';
  }

  /**
   * Opening the modal: loads countries, profile and settings when missing, selects the first payment
   * method when none is chosen, and fills blank fields from the profile.
   */
  async prepare(): Promise<void> {
    this.preparing = true;
    this.generalError = null;
    const { countries, profile, settings } = this.root;
    await Promise.all([
      countries.countries.length === 0 ? countries.ensureLoaded() : null,
      profile.profile ? null : profile.fetch(),
      settings.settings ? null : settings.load(),
      this.root.tokenPricing.load(),
    ]);
    runInAction(() => {
      if (countries.countries.length === 0 || !profile.profile || !settings.settings) {
        this.generalError = this.root.t('client-payments.errors.loadCheckout');
      }
      if (this.paymentMethodId === null || !this.paymentMethod)
        this.paymentMethodId = this.paymentMethods[0]?.id ?? null;
      this.prefillFromProfile();
      this.preparing = false;
    });
  }

  /** Copies profile values into blank fields (what the user typed is kept). */
  private prefillFromProfile(): void {
    const user = this.root.profile.profile;
    if (!user) return;
    const fill = (field: BillingField, value: string | null | undefined) => {
      if (!this.form[field] && value) this.form[field] = String(value);
    };
    fill('name', user.name);
    fill('surname', user.surname);
    fill('email', user.email);
    fill('phone', user.phone);
    fill('country', user.country?.id !== undefined ? String(user.country.id) : '');
    fill('city', user.city);
    fill('address', user.address);
    fill('postCode', user.post_code);
    if (!this.phoneCountry && user.country?.iso) this.phoneCountry = user.country.iso.toUpperCase();
  }

  setField(field: BillingField, value: string): void {
    this.form[field] = value;
    if (this.fieldErrors[field]) delete this.fieldErrors[field];
  }

  setPhone(raw: string, country: string | undefined): void {
    this.setField('phone', raw);
    this.phoneCountry = country;
  }

  setSaveInfo(save: boolean): void {
    this.saveInfo = save;
  }

  /** Client checks (top-up-validation.ts); returns the fields in error, in form order. */
  validate(): BillingField[] {
    const problems = checkBilling(this.form, this.accountEmail !== '');
    this.fieldErrors = Object.fromEntries(problems.map(([field, key]) => [field, this.root.t(key)]));
    return problems.map(([field]) => field);
  }

  /** Confirm Payment: checks, posts the checkout and sends the browser to `redirect_url`. */
  async submit(): Promise<boolean> {
    if (this.submitting) return false;
    this.generalError = null;
    if (this.validate().length > 0) return false;
    const topUp = this.root.topUp;
    const choice = topUp.choice;
    if (!choice) {
      this.generalError = this.root.t('client-payments.errors.nothingChosen');
      return false;
    }
    this.submitting = true;
    try {
      // The error catalogue still runs (401 sign-in, 403 unverified email, 5xx and network toasts).
      const reply = await this.root.api.call(endpoints.payments.checkout, { body: this.requestBody() });
      const url = reply.redirect_url;
      if (reply.status !== 'OK') throw new ApiRequestError('http', reply.message ?? '');
      if (typeof url !== 'string' || url === '') {
        runInAction(() => (this.generalError = this.root.t('client-payments.errors.noRedirect')));
        return false;
      }
      topUp.recordRedirect(url);
      runInAction(() => this.clearForm());
      this.navigateAway(url);
      return true;
    } catch (err) {
      runInAction(() => this.applyFailure(err));
      return false;
    } finally {
      runInAction(() => (this.submitting = false));
    }
  }

  private requestBody(): Record<string, unknown> {
    const topUp = this.root.topUp;
    const purchase =
      topUp.packId !== null
        ? { pack_id: topUp.packId }
        : topUp.tokens !== null
          ? { tokens: topUp.tokens }
          : { amount: topUp.amount };
    const f = this.form;
    return {
      name: f.name.trim(),
      surname: f.surname.trim(),
      email: (this.accountEmail || f.email).trim(),
      phone: f.phone.trim(),
      country: f.country ? Number(f.country) : null,
      city: f.city.trim(),
      address: f.address.trim(),
      postCode: f.postCode.trim(),
      save_info: this.saveInfo,
      payment_method_id: this.paymentMethodId,
      currency: this.root.currencies.code,
      ...purchase,
    };
  }

  /** Field errors go beside their fields (first message each); the rest goes into the banner. */
  private applyFailure(err: unknown): void {
    if (!(err instanceof ApiRequestError) || err.kind === 'network') {
      this.generalError = this.root.t('client-payments.errors.proceedFailed');
      return;
    }
    const banner: string[] = [];
    const fieldErrors: Partial<Record<BillingField, string>> = {};
    for (const [field, messages] of Object.entries(err.fieldErrors)) {
      const first = messages?.[0];
      if (!first) continue;
      if (FORM_FIELDS.has(field)) fieldErrors[field as BillingField] = first;
      else banner.push(first);
    }
    this.fieldErrors = fieldErrors;
    const hasFieldErrors = Object.keys(fieldErrors).length > 0;
    this.generalError =
      banner[0] ?? (hasFieldErrors ? null : err.message || this.root.t('client-payments.errors.checkoutFailed'));
  }

  /** After a successful checkout the billing form is cleared. */
  clearForm(): void {
    this.form = { ...EMPTY_BILLING };
    this.fieldErrors = {};
    this.generalError = null;
    this.saveInfo = false;
  }
}
