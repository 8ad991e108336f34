import { useState, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { Button, PhoneInput, Select, TextField } from '../../components';
import { interpretPhone } from '../../components/phone-logic';
import { useStore } from '../../stores';
import type { ProfileView } from '@imagestudio/contracts';

type Field = 'name' | 'surname' | 'phone' | 'country_id' | 'city' | 'address' | 'post_code';

/** The profile's editable fields; saving re-fetches the profile and shows server errors per field. */
export const ProfileForm = observer(function ProfileForm({ user, onDone }: { user: ProfileView; onDone: () => void }) {
  const { account, countries, ui, t } = useStore();
  const [form, setForm] = useState({
    name: user.name ?? '',
    surname: user.surname ?? '',
    // the international form, so the number shows (and is saved) with its country
    phone: user.phoneE164 ?? user.phone ?? '',
    country_id: user.country?.id !== undefined ? String(user.country.id) : '',
    city: user.city ?? '',
    address: user.address ?? '',
    post_code: user.post_code ?? '',
  });
  const [phoneCountry, setPhoneCountry] = useState<string | undefined>(
    () =>
      (user.phoneE164 ? interpretPhone(user.phoneE164, undefined, new Set()).country : undefined) ??
      user.country?.iso?.toUpperCase(),
  );
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [message, setMessage] = useState<string | null>(null);

  const set = (field: Field, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const phoneE164 = interpretPhone(form.phone, phoneCountry, new Set()).value.e164 || null;
    const result = await account.saveProfile({
      ...form,
      phoneE164,
      country_id: form.country_id ? Number(form.country_id) : null,
    });
    if (result.ok) {
      ui.success(t('client-payments.account.saved'));
      onDone();
      return;
    }
    setErrors(result.fieldErrors as Partial<Record<Field, string>>);
    setMessage(result.message);
  };

  const text = (
    field: Exclude<Field, 'phone' | 'country_id'>,
    label: string,
    autoComplete: string,
    required = false,
  ) => (
    <TextField
      id={`profile-${field}`}
      name={field}
      label={label}
      required={required}
      autoComplete={autoComplete}
      value={form[field]}
      error={errors[field]}
      onChange={(event) => set(field, event.target.value)}
    />
  );
  const countryOptions = [
    { value: '', label: t('client-payments.account.profile.noCountry') },
    ...countries.countries.map((c) => ({ value: String(c.id), label: c.title })),
  ];
  return (
    <form className="profile-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      {message ? (
        <p className="account-alert" role="alert">
          {message}
        </p>
      ) : null}
      <div className="profile-form__grid">
        {text('name', t('client-payments.account.profile.firstName'), 'given-name', true)}
        {text('surname', t('client-payments.account.profile.lastName'), 'family-name', true)}
        <div className="profile-form__wide">
          <PhoneInput
            id="profile-phone"
            label={t('client-payments.account.profile.phone')}
            placeholder={t('shell.phone.placeholder')}
            countryLabel={t('shell.phone.country')}
            required
            value={form.phone}
            country={phoneCountry}
            countries={countries.countries}
            onChange={(raw, country) => {
              set('phone', raw);
              setPhoneCountry(country);
            }}
            onUnsupported={() => ui.warning(t('shell.phone.unsupported'))}
            error={errors.phone}
          />
        </div>
        <Select
          id="profile-country"
          name="country_id"
          label={t('client-payments.account.profile.country')}
          options={countryOptions}
          value={form.country_id}
          error={errors.country_id}
          onChange={(event) => set('country_id', event.target.value)}
        />
        {text('city', t('client-payments.account.profile.city'), 'address-level2')}
        <div className="profile-form__wide">
          {text('address', t('client-payments.account.profile.address'), 'street-address')}
        </div>
        {text('post_code', t('client-payments.account.profile.postCode'), 'postal-code')}
      </div>
      <div className="profile-form__actions">
        <Button variant="secondary" onClick={onDone} disabled={account.savingProfile}>
          {t('client-payments.account.cancel')}
        </Button>
        <Button type="submit" busy={account.savingProfile} busyText={t('client-payments.account.saving')}>
          {t('client-payments.account.save')}
        </Button>
      </div>
    </form>
  );
});
