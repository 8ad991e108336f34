import { observer } from 'mobx-react-lite';
import { Select } from '../../../components';
import { useStore } from '../../../stores';

/** Currency choice; only shown when there is more than one currency to choose from. */
export const CurrencySelect = observer(function CurrencySelect({ id }: { id?: string }) {
  const { currencies, t } = useStore();
  if (currencies.currencies.length <= 1) return null;
  return (
    <Select
      id={id}
      className="currency-select"
      label={t('shell.nav.currency')}
      hideLabel
      value={currencies.code}
      onChange={(event) => currencies.select(event.target.value)}
      options={currencies.currencies.map((c) => ({ value: c.code, label: `${c.symbol} ${c.code}` }))}
    />
  );
});
