import { useEffect, useState, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { useSearchParams } from 'react-router';
import { EMAIL_CHANGE_OUTCOMES, type EmailChangeOutcome } from '@imagestudio/contracts';
import { Button, TextField } from '../../components';
import { useStore } from '../../stores';

type Field = 'email' | 'current_password';
const EMPTY: Record<Field, string> = { email: '', current_password: '' };

const isOutcome = (value: string | null): value is EmailChangeOutcome =>
  (EMAIL_CHANGE_OUTCOMES as readonly string[]).includes(value ?? '');

/**
 * Change of email address on the profile: the new address and the current password; the server mails a
 * link to the new address, and the change happens when it is opened. The link brings the browser back here
 * with `?email_change=changed|invalid|taken`, which is said above the form.
 */
export const EmailChangeForm = observer(function EmailChangeForm() {
  const { account, profile, t } = useStore();
  const [params, setParams] = useSearchParams();
  const [outcome, setOutcome] = useState<EmailChangeOutcome | null>(null);
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  // The outcome of a confirmation link, read once and taken out of the address (a reload does not repeat it).
  useEffect(() => {
    const value = params.get('email_change');
    if (!isOutcome(value)) return;
    setOutcome(value);
    if (value === 'changed') void profile.fetch();
    const rest = new URLSearchParams(params);
    rest.delete('email_change');
    setParams(rest, { replace: true });
  }, [params, setParams, profile]);

  const set = (field: Field, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const result = await account.changeEmail(form);
    if (result.ok) {
      setMessage({ ok: true, text: result.message ?? t('client-payments.account.email.sent') });
      setForm(EMPTY);
      setOpen(false);
      return;
    }
    setErrors(result.fieldErrors as Partial<Record<Field, string>>);
    if (result.message) setMessage({ ok: false, text: result.message });
  };

  return (
    <section className="email-change" aria-labelledby="email-change-title">
      <h3 id="email-change-title">{t('client-payments.account.email.title')}</h3>
      {outcome ? (
        <p
          className={outcome === 'changed' ? 'account-notice' : 'account-alert'}
          role={outcome === 'changed' ? 'status' : 'alert'}
          data-testid="email-change-outcome"
        >
          {t(`client-payments.account.email.${outcome}`)}
        </p>
      ) : null}
      {message ? (
        <p className={message.ok ? 'account-notice' : 'account-alert'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </p>
      ) : null}
      {open ? (
        <form className="password-form" onSubmit={(event) => void onSubmit(event)} noValidate>
          <p className="email-change__help">{t('client-payments.account.email.help')}</p>
          <TextField
            name="email"
            type="email"
            label={t('client-payments.account.email.new')}
            required
            autoComplete="email"
            value={form.email}
            error={errors.email}
            onChange={(event) => set('email', event.target.value)}
          />
          <TextField
            name="current_password"
            type="password"
            label={t('client-payments.account.email.password')}
            required
            autoComplete="current-password"
            value={form.current_password}
            error={errors.current_password}
            onChange={(event) => set('current_password', event.target.value)}
          />
          <div className="email-change__actions">
            <Button type="submit" busy={account.changingEmail} busyText={t('client-payments.account.email.busy')}>
              {t('client-payments.account.email.submit')}
            </Button>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {t('client-payments.account.email.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
          {t('client-payments.account.email.change')}
        </Button>
      )}
    </section>
  );
});
