import { useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Badge, Button, Card, TextField } from '../../components';
import { useStore } from '../../stores';
import { onSubmit, useChange } from './catalog-forms';
import { CatalogSaveFooter } from './catalog-save-footer';
import { useAdmin } from './use-admin';

/** The currencies: rates, symbols, the default one and which are hidden. */
export const CurrenciesSection = observer(function CurrenciesSection() {
  const { t } = useStore();
  const { catalog } = useAdmin();
  const currencies = catalog.catalog?.currencies ?? [];
  const [code, setCode] = useState('');
  const [rate, setRate] = useState('');
  const [symbol, setSymbol] = useState('');
  const [outcome, run] = useChange();
  return (
    <Card className="admin-panel">
      <h2>{t('client-admin.catalog.currencies')}</h2>
      <div className="admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t('client-admin.catalog.code')}</th>
              <th scope="col">{t('client-admin.catalog.rate')}</th>
              <th scope="col">{t('client-admin.catalog.symbol')}</th>
              <th scope="col">{t('client-admin.col.status')}</th>
              <th scope="col">{t('client-admin.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {currencies.map((c) => (
              <tr key={c.code}>
                <td>{c.code}</td>
                <td>{c.rate}</td>
                <td>{c.symbol}</td>
                <td>
                  <div className="admin-badges">
                    {c.is_default ? <Badge tone="accent">{t('client-admin.catalog.default')}</Badge> : null}
                    {c.hidden ? <Badge tone="warning">{t('client-admin.catalog.hidden')}</Badge> : null}
                  </div>
                </td>
                <td>
                  <div className="admin-actions">
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => {
                        setCode(c.code);
                        setRate(c.rate);
                        setSymbol(c.symbol);
                      }}
                    >
                      {t('client-admin.edit')}
                    </Button>
                    {!c.is_default ? (
                      <>
                        <Button
                          size="sm"
                          variant="ghost"
                          onClick={() => void run(() => catalog.setDefaultCurrency(c.code))}
                        >
                          {t('client-admin.catalog.makeDefault')}
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          onClick={() => void run(() => catalog.setCurrencyHidden(c.code, !c.hidden))}
                        >
                          {t(c.hidden ? 'client-admin.catalog.show' : 'client-admin.catalog.hide')}
                        </Button>
                      </>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form className="admin-form" onSubmit={onSubmit(() => void run(() => catalog.setCurrency(code, rate, symbol)))}>
        <div className="admin-filters">
          <TextField
            label={t('client-admin.catalog.code')}
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <TextField
            label={t('client-admin.catalog.rate')}
            help={t('client-admin.catalog.rateHelp')}
            inputMode="decimal"
            required
            value={rate}
            onChange={(e) => setRate(e.target.value)}
          />
          <TextField
            label={t('client-admin.catalog.symbol')}
            value={symbol}
            onChange={(e) => setSymbol(e.target.value)}
          />
        </div>
        <CatalogSaveFooter outcome={outcome} />
      </form>
    </Card>
  );
});
