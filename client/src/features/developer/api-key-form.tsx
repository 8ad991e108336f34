import { useState, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { Button, Select, TextField } from '../../components';
import { formatDate } from '../../lib/format';
import { useStore } from '../../stores';

/** How long a new key may live, in days; the form offers these rather than a date picker. */
const EXPIRY_DAYS = [30, 90, 180, 365] as const;

/** The local calendar day `days` from now as YYYY-MM-DD (the store reads it as the end of that day). */
function dayFromNow(days: number): string {
  const day = new Date();
  day.setDate(day.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** The form that creates a key: its name and how long it lives; cleared once the key is made. */
export const ApiKeyForm = observer(function ApiKeyForm() {
  const { apiKeys: store, t } = useStore();
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await store.create(name, expires);
    if (store.created) {
      setName('');
      setExpires('');
    }
  };
  return (
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
  );
});
