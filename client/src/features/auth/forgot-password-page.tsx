import { useRef, useState, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { Button, Card, TextField } from '../../components';
import { paths } from '../../config/paths';
import { useStore } from '../../stores';
import { FormAlert } from './form-alert';
import { useSubmitGuard } from './use-submit-guard';
import { validateForgot } from './validation';
import './auth.css';

/** /forgot-password: asks for the email and sends a reset link. */
export const ForgotPasswordPage = observer(function ForgotPasswordPage() {
  const { auth, t } = useStore();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  /** The address a link was sent to: the page itself says so (a toast alone is gone in 3 s). */
  const [sentTo, setSentTo] = useState<string | null>(null);
  const guard = useSubmitGuard();
  const emailRef = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (auth.isLoading || !guard.tryEnter()) return;
    const problem = validateForgot(email);
    if (problem) {
      guard.failed();
      setError(t(problem.key));
      emailRef.current?.focus();
      return;
    }
    guard.submitted();
    setError(null);
    setFormError(null);
    const result = await auth.requestPasswordReset(email.trim());
    if (result.ok) setSentTo(email.trim());
    else setFormError(result.message);
  };

  return (
    <Card raised className="auth-card">
      <header className="auth-card__header">
        <h1>{t('shell.auth.forgot.title')}</h1>
        <p>{t('shell.auth.forgot.subtitle')}</p>
      </header>
      {sentTo ? (
        <p className="notice notice--success" role="status" data-testid="reset-link-sent">
          {t('shell.auth.forgot.sent', { email: sentTo })}
        </p>
      ) : null}
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormAlert message={formError} />
        <TextField
          ref={emailRef}
          label={t('shell.auth.email')}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={error}
        />
        <Button type="submit" block size="lg" busy={auth.isLoading} busyText={t('shell.auth.forgot.busy')}>
          {t('shell.auth.forgot.submit')}
        </Button>
      </form>
      <p className="auth-card__footer">
        <Link to={paths.login}>{t('shell.auth.forgot.back')}</Link>
      </p>
    </Card>
  );
});
