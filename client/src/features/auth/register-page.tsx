import { useEffect, useRef, useState, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useSearchParams } from 'react-router';
import { Button, Card, Checkbox, PhoneInput, TextField, type PhoneValue } from '../../components';
import { paths } from '../../config/paths';
import { safeRedirect } from '../../lib/redirect';
import { usePhoneCountry } from '../../hooks/use-phone-country';
import { useStore } from '../../stores';
import { TermsLabel } from './terms-label';
import { FormAlert } from './form-alert';
import { useSubmitGuard } from './use-submit-guard';
import { validateRegister, type RegisterFormField } from './validation';
import './auth.css';

type Errors = Partial<Record<RegisterFormField, string>>;

const EMPTY_PHONE: PhoneValue = { phone: '', phoneCountryCode: '', nationalNumber: '', isValid: false, e164: '' };

/** /register: name, surname, email, phone, password twice and the terms; first failure shown. */
export const RegisterPage = observer(function RegisterPage() {
  const { auth, countries, settings, t } = useStore();
  const [params] = useSearchParams();
  const [form, setForm] = useState({
    firstName: '',
    lastName: '',
    email: '',
    password: '',
    confirmPassword: '',
    terms: false,
  });
  const [phone, setPhone] = useState<{ raw: string; country: string | undefined; value: PhoneValue }>({
    raw: '',
    country: undefined,
    value: EMPTY_PHONE,
  });
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const guard = useSubmitGuard();
  const refs = useRef<Partial<Record<RegisterFormField, HTMLInputElement | null>>>({});

  useEffect(() => {
    void countries.ensureLoaded();
  }, [countries]);

  const { detectCountry, onUnsupported } = usePhoneCountry();

  // Editing a field clears its message; the next submit checks everything again.
  const set = (field: keyof typeof form) => (value: string | boolean) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (auth.isLoading || !guard.tryEnter()) return;
    const problem = validateRegister({ ...form, phone: phone.raw, phoneValid: phone.value.isValid });
    if (problem) {
      guard.failed();
      const message = t(problem.key);
      setErrors(Object.fromEntries(problem.fields.map((f) => [f, message])));
      refs.current[problem.fields[0]!]?.focus();
      return;
    }
    guard.submitted();
    setErrors({});
    setFormError(null);
    const redirectTo = safeRedirect(params.get('redirect'), paths.emailVerification);
    const result = await auth.register(
      {
        name: form.firstName.trim(),
        surname: form.lastName.trim(),
        email: form.email.trim(),
        phone: phone.raw.trim(),
        phoneE164: phone.value.e164,
        password: form.password,
        password_confirmation: form.confirmPassword,
      },
      redirectTo,
    );
    if (!result.ok) {
      setErrors(result.fieldErrors);
      // A problem the server pinned on a field (the email is taken) is said once, under that field.
      setFormError(Object.keys(result.fieldErrors).length > 0 ? null : result.message);
    }
  };

  if (!settings.registrationEnabled) {
    return (
      <Card raised className="auth-card">
        <h1>{t('shell.auth.register.title')}</h1>
        <FormAlert message={t('shell.auth.register.disabled')} />
        <p className="auth-card__footer">
          <Link to={paths.home}>{t('shell.auth.backHome')}</Link>
        </p>
      </Card>
    );
  }

  const field = (name: RegisterFormField) => ({
    ref: (el: HTMLInputElement | null) => {
      refs.current[name] = el;
    },
    error: errors[name],
    required: true,
  });
  const loginLink = params.get('redirect')
    ? `${paths.login}?redirect=${encodeURIComponent(params.get('redirect')!)}`
    : paths.login;
  return (
    <Card raised className="auth-card">
      <header className="auth-card__header">
        <h1>{t('shell.auth.register.title')}</h1>
        <p>{t('shell.auth.register.subtitle')}</p>
      </header>
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormAlert message={formError} />
        <div className="auth-form__row">
          <TextField
            {...field('firstName')}
            label={t('shell.auth.name')}
            name="name"
            autoComplete="given-name"
            value={form.firstName}
            onChange={(e) => set('firstName')(e.target.value)}
          />
          <TextField
            {...field('lastName')}
            label={t('shell.auth.surname')}
            name="surname"
            autoComplete="family-name"
            value={form.lastName}
            onChange={(e) => set('lastName')(e.target.value)}
          />
        </div>
        <TextField
          {...field('email')}
          label={t('shell.auth.email')}
          type="email"
          name="email"
          autoComplete="email"
          value={form.email}
          onChange={(e) => set('email')(e.target.value)}
        />
        <PhoneInput
          id="register-phone"
          label={t('shell.auth.phone')}
          placeholder={t('shell.phone.placeholder')}
          countryLabel={t('shell.phone.country')}
          required
          value={phone.raw}
          country={phone.country}
          countries={countries.countries.slice()}
          detectCountry={detectCountry}
          onChange={(raw, country, value) => setPhone({ raw, country, value })}
          onUnsupported={onUnsupported}
          error={errors.phone}
        />
        <TextField
          {...field('password')}
          label={t('shell.auth.password')}
          type="password"
          name="password"
          autoComplete="new-password"
          help={t('shell.auth.passwordHelp')}
          value={form.password}
          onChange={(e) => set('password')(e.target.value)}
        />
        <TextField
          {...field('confirmPassword')}
          label={t('shell.auth.confirmPassword')}
          type="password"
          name="password_confirmation"
          autoComplete="new-password"
          value={form.confirmPassword}
          onChange={(e) => set('confirmPassword')(e.target.value)}
        />
        <Checkbox
          ref={(el) => {
            refs.current.terms = el;
          }}
          name="terms"
          label={<TermsLabel />}
          checked={form.terms}
          onChange={(e) => set('terms')(e.target.checked)}
          error={errors.terms}
        />
        <Button type="submit" block size="lg" busy={auth.isLoading} busyText={t('shell.auth.register.busy')}>
          {t('shell.auth.register.submit')}
        </Button>
      </form>
      <p className="auth-card__footer">
        {t('shell.auth.register.haveAccount')} <Link to={loginLink}>{t('shell.auth.register.signIn')}</Link>
      </p>
    </Card>
  );
});
