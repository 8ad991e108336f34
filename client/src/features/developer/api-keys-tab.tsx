import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { KeyRound } from 'lucide-react';
import { Link } from 'react-router';
import { Button, Card, ConfirmDialog, EmptyState } from '../../components';
import { paths } from '../../config/paths';
import { useStore } from '../../stores';
import { ApiKeyForm } from './api-key-form';
import { ApiKeysTable } from './api-keys-table';
import { CopyField } from './copy-field';
import './developer.css';

/** API keys tab: create (name, optional expiry), the new key shown once, the list with revoke, the webhook secret. */
export const ApiKeysTab = observer(function ApiKeysTab() {
  const { apiKeys: store, t } = useStore();
  // The key whose revoke button was pressed: asked in the app's own dialog before anything is revoked.
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const [rotating, setRotating] = useState(false);

  useEffect(() => {
    void store.load();
    return () => store.dismissCreated();
  }, [store]);

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

      <ApiKeyForm />
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
        <ApiKeysTable onRevoke={(key) => setRevoking({ id: key.id, name: key.name })} />
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
