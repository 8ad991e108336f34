import { useState, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { Button, Modal, TextField } from '../../components';
import { useStore } from '../../stores';
import { useAdmin } from './use-admin';

/**
 * Asks for the operator's password when a change answered `reauth_required`; once confirmed, the change is
 * sent again by the store (ReauthStore.run). Closing the dialog gives the change up.
 */
export const ReauthDialog = observer(function ReauthDialog() {
  const { t } = useStore();
  const { reauth } = useAdmin();
  const [password, setPassword] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await reauth.confirm(password);
    setPassword('');
  };
  return (
    <Modal
      open={reauth.open}
      title={t('client-admin.reauth.title')}
      onClose={() => reauth.cancel()}
      size="sm"
      closeLabel={t('client-admin.close')}
    >
      <form onSubmit={(e) => void submit(e)} className="admin-form" data-testid="reauth-form">
        <p>{t('client-admin.reauth.lead')}</p>
        <TextField
          label={t('client-admin.reauth.password')}
          type="password"
          autoComplete="current-password"
          required
          autoFocus
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={reauth.error}
        />
        <div className="admin-form__actions">
          <Button type="button" variant="secondary" onClick={() => reauth.cancel()}>
            {t('client-admin.cancel')}
          </Button>
          <Button type="submit" busy={reauth.busy}>
            {t('client-admin.reauth.confirm')}
          </Button>
        </div>
      </form>
    </Modal>
  );
});
