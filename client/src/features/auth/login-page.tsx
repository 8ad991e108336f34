import { useRef, useState, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useSearchParams } from 'react-router';
import { Button, Card, Checkbox, TextField } from '../../components';
import { paths } from '../../config/paths';
import { safeRedirect } from '../../lib/redirect';
import { useStore } from '../../stores';
import { FormAlert } from './form-alert';
import { useSubmitGuard } from './use-submit-guard';
import { validateLogin } from './validation';
import './auth.css';

/** /login: email, password, remember me; on success goes to the redirect query value, else /account. */
export const LoginPage = observer(function LoginPage() {
  const { auth, t } = useStore();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [error, setError] = useState<{ fields: string[]; message: string } | null>(null);
  const guard = useSubmitGuard();
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const redirect = params.get('redirect');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (auth.isLoading || !guard.tryEnter()) return;
    const problem = validateLogin({ email, password });
    if (problem) {
      guard.failed();
      setError({ fields: problem.fields, message: t(problem.key) });
      (problem.fields[0] === 'password' ? passwordRef : emailRef).current?.focus();
      return;
    }
    guard.submitted();
    setError(null);
    const result = await auth.login(
      { email: email.trim(), password, rememberMe },
      safeRedirect(redirect, paths.account.root),
    );
    if (!result.ok) setError({ fields: [], message: result.message });
  };

  const fieldError = (field: string) => (error?.fields.includes(field) ? error.message : null);
  const registerLink = redirect ? `${paths.register}?redirect=${encodeURIComponent(redirect)}` : paths.register;
  return (
    <Card raised className="auth-card">
      <header className="auth-card__header">
        <h1>{t('shell.auth.login.title')}</h1>
        <p>{t('shell.auth.login.subtitle')}</p>
      </header>
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormAlert message={error && error.fields.length === 0 ? error.message : null} />
        <TextField
          ref={emailRef}
          label={t('shell.auth.email')}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fieldError('email')}
        />
        <TextField
          ref={passwordRef}
          label={t('shell.auth.password')}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldError('password')}
        />
        <div className="auth-form__inline">
          <Checkbox
            label={t('shell.auth.rememberMe')}
            name="remember"
            checked={rememberMe}
            onChange={(e) => setRememberMe(e.target.checked)}
          />
          <Link to={paths.forgotPassword}>{t('shell.auth.login.forgot')}</Link>
        </div>
        <Button type="submit" block size="lg" busy={auth.isLoading} busyText={t('shell.auth.login.busy')}>
          {t('shell.auth.login.submit')}
        </Button>
      </form>
      <p className="auth-card__footer">
        {t('shell.auth.login.noAccount')} <Link to={registerLink}>{t('shell.auth.login.signUp')}</Link>
      </p>
    </Card>
  );
});
