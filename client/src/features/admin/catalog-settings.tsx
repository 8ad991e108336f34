import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Card, Select, TextField } from '../../components';
import { useStore } from '../../stores';
import { onSubmit, useChange } from './catalog-forms';
import { CatalogSaveFooter } from './catalog-save-footer';
import { useAdmin } from './use-admin';

/** The settings of `npm run admin -- settings set`: pick one, type its value (JSON or text), save. */
export const SettingsSection = observer(function SettingsSection() {
  const { t } = useStore();
  const { catalog } = useAdmin();
  // Read by key name: the picker lists whatever settings the server sends.
  const settings: Record<string, unknown> = catalog.catalog?.settings ?? {};
  const keys = Object.keys(settings);
  const [key, setKey] = useState(keys[0] ?? '');
  const [value, setValue] = useState('');
  const [outcome, run] = useChange();
  useEffect(() => {
    const current = settings[key];
    setValue(typeof current === 'string' ? current : JSON.stringify(current));
    // Only when another setting is picked: a typed value is not overwritten by a reload.
  }, [key]);
  return (
    <Card className="admin-panel">
      <h2>{t('client-admin.catalog.settings')}</h2>
      <form className="admin-form" onSubmit={onSubmit(() => void run(() => catalog.setSetting(key, value)))}>
        <Select
          label={t('client-admin.catalog.setting')}
          value={key}
          onChange={(e) => setKey(e.target.value)}
          options={keys.map((k) => ({ value: k, label: k }))}
        />
        <TextField
          label={t('client-admin.catalog.value')}
          help={t('client-admin.catalog.valueHelp')}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <CatalogSaveFooter outcome={outcome} />
      </form>
    </Card>
  );
});
