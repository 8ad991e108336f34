import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { interpretPhone, PhoneInput, Select, TextField } from '../../components';
import { usePhoneCountry } from '../../hooks/use-phone-country';
import { useStore, type BillingField } from '../../stores';

/** Id of a billing field's input, so the first field in error can be focused. */
export const billingInputId = (field: BillingField) => `checkout-${field}`;

/** The billing fields of Confirm Information; required ones are starred, errors sit under each field. */
export const BillingFields = observer(function BillingFields() {
  const { checkout, countries, t } = useStore();
  const { form, fieldErrors: errors } = checkout;
  // An unsupported country clears the number; the toast is rate limited to 500 ms.
  const { detectCountry, onUnsupported } = usePhoneCountry();
  // A number filled in from the profile names its country by its prefix (+49): show it in the dropdown.
  useEffect(() => {
    if (checkout.phoneCountry || !checkout.form.phone.startsWith('+') || countries.countries.length === 0) return;
    const country = interpretPhone(checkout.form.phone, undefined, countries.isoCodes).country;
    if (country && countries.isoCodes.has(country)) checkout.setPhone(checkout.form.phone, country);
  }, [checkout, checkout.form.phone, checkout.phoneCountry, countries.countries.length, countries.isoCodes]);

  const text = (
    field: BillingField,
    label: string,
    autoComplete: string,
    extra: { type?: string; disabled?: boolean; required?: boolean } = {},
  ) => (
    <TextField
      id={billingInputId(field)}
      name={field}
      label={label}
      autoComplete={autoComplete}
      required={extra.required ?? true}
      type={extra.type ?? 'text'}
      disabled={extra.disabled}
      value={form[field]}
      error={errors[field]}
      onChange={(event) => checkout.setField(field, event.target.value)}
    />
  );
  const countryOptions = [
    { value: '', label: t('client-payments.checkout.selectCountry') },
    ...countries.countries.map((c) => ({ value: String(c.id), label: c.title })),
  ];
  return (
    <div className="billing-fields">
      {text('name', t('client-payments.checkout.firstName'), 'given-name')}
      {text('surname', t('client-payments.checkout.lastName'), 'family-name')}
      {checkout.accountEmail
        ? text('email', t('client-payments.checkout.email'), 'email', {
            type: 'email',
            disabled: true,
            required: false,
          })
        : text('email', t('client-payments.checkout.email'), 'email', { type: 'email' })}
      <div className="billing-fields__wide">
        <PhoneInput
          id={billingInputId('phone')}
          label={t('client-payments.checkout.phone')}
          placeholder={t('shell.phone.placeholder')}
          countryLabel={t('shell.phone.country')}
          required
          value={form.phone}
          country={checkout.phoneCountry}
          countries={countries.countries}
          detectCountry={checkout.phoneCountry ? undefined : detectCountry}
          onChange={(raw, country) => checkout.setPhone(raw, country)}
          onUnsupported={onUnsupported}
          error={errors.phone}
        />
      </div>
      <Select
        id={billingInputId('country')}
        name="country"
        label={t('client-payments.checkout.country')}
        required
        options={countryOptions}
        value={form.country}
        error={errors.country}
        onChange={(event) => checkout.setField('country', event.target.value)}
      />
      {text('city', t('client-payments.checkout.city'), 'address-level2')}
      <div className="billing-fields__wide">
        {text('address', t('client-payments.checkout.address'), 'street-address')}
      </div>
      {text('postCode', t('client-payments.checkout.postCode'), 'postal-code')}
    </div>
  );
});
