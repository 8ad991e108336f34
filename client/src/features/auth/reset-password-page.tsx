import { useRef, useState, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, Card, TextField } from '../../components';
import { paths } from '../../config/paths';
import { useStore } from '../../stores';
import { FormAlert } from './form-alert';
import { useSubmitGuard } from './use-submit-guard';
import { validateReset } from './validation';
import './auth.css';

/** /reset-password and /reset-password-confirm: new password from a reset link (?token=&email=). */
export const ResetPasswordPage = observer(function ResetPasswordPage() {
  const { auth, t } = useStore();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<{ fields: string[]; message: string } | null>(null);
  const guard = useSubmitGuard();
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const linkValid = Boolean(token && email);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!linkValid || auth.isLoading || !guard.tryEnter()) return;
    const problem = validateReset({ password, confirmPassword });
    if (problem) {
      guard.failed();
      setError({ fields: problem.fields, message: t(problem.key) });
      (problem.fields[0] === 'confirmPassword' ? confirmRef : passwordRef).current?.focus();
      return;
    }
    guard.submitted();
    setError(null);
    const result = await auth.resetPassword({ token, email, password, password_confirmation: confirmPassword });
    if (result.ok) navigate(paths.login, { replace: true });
    else setError({ fields: [], message: result.message });
  };

  const fieldError = (field: string) => (error?.fields.includes(field) ? error.message : null);
  return (
    <Card raised className="auth-card">
      <header className="auth-card__header">
        <h1>{t('shell.auth.reset.title')}</h1>
        <p>{t('shell.auth.reset.subtitle')}</p>
      </header>
      {linkValid ? (
        <form className="auth-form" onSubmit={onSubmit} noValidate>
          <FormAlert message={error && error.fields.length === 0 ? error.message : null} />
          <TextField
            ref={passwordRef}
            label={t('shell.auth.newPassword')}
            type="password"
            name="password"
            autoComplete="new-password"
            required
            help={t('shell.auth.passwordHelp')}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={fieldError('password')}
          />
          <TextField
            ref={confirmRef}
            label={t('shell.auth.confirmPassword')}
            type="password"
            name="password_confirmation"
            autoComplete="new-password"
            required
            value={confirmPassword}
            onChange={(e) => setConfirmPassword(e.target.value)}
            error={fieldError('confirmPassword')}
          />
          <Button type="submit" block size="lg" busy={auth.isLoading} busyText={t('shell.auth.reset.busy')}>
            {t('shell.auth.reset.submit')}
          </Button>
        </form>
      ) : (
        <FormAlert message={t('shell.validation.invalidResetLink')} />
      )}
      <p className="auth-card__footer">
        <Link to={paths.login}>{t('shell.auth.forgot.back')}</Link>
      </p>
    </Card>
  );
});
