import { useEffect, useState, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { Copy, KeyRound } from 'lucide-react';
import { Link } from 'react-router';
import { Button, Card, ConfirmDialog, EmptyState, Select, TextField } from '../../components';
import { paths } from '../../config/paths';
import { formatDate } from '../../lib/format';
import { useStore } from '../../stores';
import './developer.css';

/** A value to copy, with a button that copies it. */
function CopyField({ value, label, testId }: { value: string; label: string; testId: string }) {
  const { t } = useStore();
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(() => setCopied(true));
  };
  return (
    <div className="copy-field">
      <code aria-label={label} data-testid={testId}>
        {value}
      </code>
      <Button variant="secondary" size="sm" icon={<Copy aria-hidden="true" />} onClick={copy}>
        {copied ? t('client-developer.keys.copied') : t('client-developer.keys.copy')}
      </Button>
    </div>
  );
}

/** How long a new key may live, in days; the form offers these rather than a date picker. */
const EXPIRY_DAYS = [30, 90, 180, 365] as const;

/** The local calendar day `days` from now as YYYY-MM-DD (the store reads it as the end of that day). */
function dayFromNow(days: number): string {
  const day = new Date();
  day.setDate(day.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** API keys tab: create (name, optional expiry), the new key shown once, the list with revoke, the webhook secret. */
export const ApiKeysTab = observer(function ApiKeysTab() {
  const { apiKeys: store, t } = useStore();
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  // The key whose revoke button was pressed: asked in the app's own dialog before anything is revoked.
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const [rotating, setRotating] = useState(false);

  useEffect(() => {
    void store.load();
    return () => store.dismissCreated();
  }, [store]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await store.create(name, expires);
    if (store.created) {
      setName('');
      setExpires('');
    }
  };

  const confirmRevoke = () => {
    if (revoking) void store.revoke(revoking.id);
    setRevoking(null);
  };
  const confirmRotate = () => {
    void store.rotateWebhookSecret();
    setRotating(false);
  };

  return (
    <Card className="account-panel">
      <header className="account-panel__header developer-stack">
        <h2>{t('client-developer.keys.title')}</h2>
        <p className="developer-lead">
          {t('client-developer.keys.lead')} <Link to={paths.developers}>{t('client-developer.keys.docs')}</Link>
        </p>
      </header>

      <form className="api-key-form" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label={t('client-developer.keys.name')}
          value={name}
          maxLength={100}
          required
          error={store.fieldErrors.name}
          onChange={(e) => setName(e.target.value)}
        />
        {/*
         * A choice of periods, each with its last day in the reader's date style: the browser's own date
         * picker speaks the browser's language (mm/dd/yyyy on an English browser), not the page's.
         */}
        <Select
          label={t('client-developer.keys.expiresIn')}
          value={expires}
          error={store.fieldErrors.expires_at}
          options={[
            { value: '', label: t('client-developer.keys.expiresNever') },
            ...EXPIRY_DAYS.map((n) => {
              const day = dayFromNow(n);
              return {
                value: day,
                label: t('client-developer.keys.expiresAfter', { n, date: formatDate(`${day}T12:00:00`) }),
              };
            }),
          ]}
          onChange={(e) => setExpires(e.target.value)}
        />
        <Button type="submit" disabled={store.busy}>
          {t('client-developer.keys.create')}
        </Button>
      </form>
      {store.error ? (
        <p className="account-alert" role="alert">
          {store.error}
        </p>
      ) : null}

      {store.created ? (
        <div className="api-key-created" role="status">
          <h3>{t('client-developer.keys.createdTitle')}</h3>
          <p>{t('client-developer.keys.createdText')}</p>
          <CopyField value={store.created.key} label={t('client-developer.keys.createdTitle')} testId="new-api-key" />
          <Button variant="secondary" size="sm" onClick={() => store.dismissCreated()}>
            {t('client-developer.keys.done')}
          </Button>
        </div>
      ) : null}

      {store.loaded && store.keys.length === 0 ? (
        <EmptyState icon={<KeyRound aria-hidden="true" />} text={t('client-developer.keys.empty')} />
      ) : (
        <table className="history-table">
          <thead>
            <tr>
              <th scope="col">{t('client-developer.keys.name')}</th>
              <th scope="col">{t('client-developer.keys.key')}</th>
              <th scope="col">{t('client-developer.keys.created')}</th>
              <th scope="col">{t('client-developer.keys.lastUsed')}</th>
              <th scope="col">{t('client-developer.keys.expiresColumn')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('client-developer.keys.revoke')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {store.keys.map((key) => (
              <tr key={key.id} data-testid="api-key-row">
                <td data-label={t('client-developer.keys.name')}>{key.name}</td>
                <td data-label={t('client-developer.keys.key')}>
                  <code>
                    {key.prefix}…{key.last4}
                  </code>
                </td>
                <td data-label={t('client-developer.keys.created')}>{formatDate(key.created_at)}</td>
                <td data-label={t('client-developer.keys.lastUsed')}>
                  {key.last_used_at ? formatDate(key.last_used_at) : t('client-developer.keys.never')}
                </td>
                <td data-label={t('client-developer.keys.expiresColumn')}>
                  {key.expires_at ? formatDate(key.expires_at) : t('client-developer.keys.noExpiry')}
                </td>
                <td>
                  <Button variant="secondary" size="sm" onClick={() => setRevoking({ id: key.id, name: key.name })}>
                    {t('client-developer.keys.revoke')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {store.webhookSecret ? (
        <section className="webhook-secret">
          <h3>{t('client-developer.keys.webhookTitle')}</h3>
          <p className="developer-lead">{t('client-developer.keys.webhookText')}</p>
          <CopyField
            value={store.webhookSecret}
            label={t('client-developer.keys.webhookTitle')}
            testId="webhook-secret"
          />
          <Button variant="secondary" size="sm" onClick={() => setRotating(true)} data-testid="rotate-webhook-secret">
            {t('client-developer.keys.rotateSecret')}
          </Button>
        </section>
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title={t('client-developer.keys.revokeTitle')}
        confirmLabel={t('client-developer.keys.revoke')}
        cancelLabel={t('client-developer.keys.keep')}
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(null)}
      >
        <p>{t('client-developer.keys.revokeConfirm', { name: revoking?.name ?? '' })}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={rotating}
        title={t('client-developer.keys.rotateSecret')}
        confirmLabel={t('client-developer.keys.rotateSecret')}
        cancelLabel={t('client-developer.keys.keep')}
        onConfirm={confirmRotate}
        onCancel={() => setRotating(false)}
      >
        <p>{t('client-developer.keys.rotateConfirm')}</p>
      </ConfirmDialog>
    </Card>
  );
});
