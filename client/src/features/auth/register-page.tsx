import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useSearchParams } from 'react-router';
import { Button, Card, Checkbox, PhoneInput, TextField } from '../../components';
import { paths } from '../../config/paths';
import { usePhoneCountry } from '../../hooks/use-phone-country';
import { PASSWORD_RULES_ATTRIBUTE } from '../../lib/password-rule';
import { useStore } from '../../stores';
import { TermsLabel } from './terms-label';
import { FormAlert } from './form-alert';
import { RegistrationClosed } from './registration-closed';
import { useRegisterForm } from './use-register-form';
import './auth.css';

/** /register: name, surname, email, phone, password twice and the terms; first failure shown. */
export const RegisterPage = observer(function RegisterPage() {
  const { auth, countries, settings, t } = useStore();
  const [params] = useSearchParams();
  const { form, set, phone, setPhone, errors, formError, field, refs, onSubmit } = useRegisterForm(
    params.get('redirect'),
  );
  useEffect(() => {
    void countries.ensureLoaded();
  }, [countries]);

  const { detectCountry, onUnsupported } = usePhoneCountry();

  if (!settings.registrationEnabled) return <RegistrationClosed />;

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
          {...PASSWORD_RULES_ATTRIBUTE}
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
