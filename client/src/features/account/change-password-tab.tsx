import { useState, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { Button, Card, TextField } from '../../components';
import { PASSWORD_RULES_ATTRIBUTE, passwordLiveKey } from '../../lib/password-rule';
import { useStore } from '../../stores';
import { checkPasswordChange, type PasswordField } from './password-rules';

const EMPTY: Record<PasswordField, string> = { current_password: '', password: '', password_confirmation: '' };

/** Change Password: current, new and confirmation, the password rule, and the server's answer. */
export const ChangePasswordTab = observer(function ChangePasswordTab() {
  const { account, ui, t } = useStore();
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<PasswordField, string>>>({});
  const [message, setMessage] = useState<string | null>(null);

  // A new password over the limit is said at once (a password manager's suggestion arrives whole and unseen).
  const set = (field: PasswordField, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    const live = field === 'password' ? passwordLiveKey(value) : null;
    setErrors((e) => ({ ...e, [field]: live ? t(live) : undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const problem = checkPasswordChange(form);
    if (problem) {
      const text = t(problem.key);
      setErrors(Object.fromEntries(problem.fields.map((f) => [f, text])));
      document.getElementById(`password-${problem.fields[0]}`)?.focus();
      return;
    }
    const result = await account.changePassword(form);
    if (result.ok) {
      ui.success(result.message ?? t('client-payments.account.password.updated'));
      setForm(EMPTY);
      setErrors({});
      return;
    }
    setErrors(result.fieldErrors as Partial<Record<PasswordField, string>>);
    setMessage(result.message);
  };

  const field = (name: PasswordField, label: string, autoComplete: string, help?: string) => (
    <TextField
      id={`password-${name}`}
      name={name}
      type="password"
      label={label}
      help={help}
      required
      autoComplete={autoComplete}
      {...(autoComplete === 'new-password' ? PASSWORD_RULES_ATTRIBUTE : {})}
      value={form[name]}
      error={errors[name]}
      onChange={(event) => set(name, event.target.value)}
    />
  );
  return (
    <Card className="account-panel">
      <header className="account-panel__header">
        <h2>{t('client-payments.account.password.title')}</h2>
      </header>
      <form className="password-form" onSubmit={(event) => void onSubmit(event)} noValidate>
        {message ? (
          <p className="account-alert" role="alert">
            {message}
          </p>
        ) : null}
        {field('current_password', t('client-payments.account.password.current'), 'current-password')}
        {field(
          'password',
          t('client-payments.account.password.new'),
          'new-password',
          t('client-payments.account.password.help'),
        )}
        {field('password_confirmation', t('client-payments.account.password.confirm'), 'new-password')}
        <Button type="submit" busy={account.changingPassword} busyText={t('client-payments.account.password.busy')}>
          {t('client-payments.account.password.submit')}
        </Button>
      </form>
    </Card>
  );
});
