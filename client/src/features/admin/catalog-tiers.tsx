import { useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Button, Card, TextField } from '../../components';
import { useStore } from '../../stores';
import { onSubmit, useChange } from './catalog-forms';
import { CatalogSaveFooter } from './catalog-save-footer';
import { useAdmin } from './use-admin';

/** The price tiers, each by where it starts and its EUR price per token (as `tiers set`). */
export const TiersSection = observer(function TiersSection() {
  const { t } = useStore();
  const { catalog } = useAdmin();
  const saved = catalog.catalog?.tiers ?? [];
  const [rows, setRows] = useState(() => saved.map((tier) => ({ min: String(tier.min), price: tier.price })));
  const [outcome, run] = useChange();
  const setRow = (i: number, change: Partial<{ min: string; price: string }>) =>
    setRows(rows.map((row, j) => (j === i ? { ...row, ...change } : row)));
  return (
    <Card className="admin-panel">
      <h2>{t('client-admin.catalog.tiers')}</h2>
      <p className="admin-muted">{t('client-admin.catalog.tiersLead')}</p>
      <form
        className="admin-form"
        onSubmit={onSubmit(() => void run(() => catalog.setTiers(rows)))}
        data-testid="tiers-form"
      >
        {rows.map((row, i) => (
          <div className="admin-filters" key={i}>
            <TextField
              label={t('client-admin.catalog.tierFrom', { n: i + 1 })}
              inputMode="decimal"
              value={row.min}
              onChange={(e) => setRow(i, { min: e.target.value })}
            />
            <TextField
              label={t('client-admin.catalog.tierPrice', { n: i + 1 })}
              inputMode="decimal"
              value={row.price}
              onChange={(e) => setRow(i, { price: e.target.value })}
            />
            <Button
              type="button"
              size="sm"
              variant="ghost"
              disabled={rows.length <= 1}
              onClick={() => setRows(rows.filter((_, j) => j !== i))}
            >
              {t('client-admin.remove')}
            </Button>
          </div>
        ))}
        <CatalogSaveFooter outcome={outcome}>
          <Button type="button" variant="secondary" onClick={() => setRows([...rows, { min: '', price: '' }])}>
            {t('client-admin.catalog.addTier')}
          </Button>
        </CatalogSaveFooter>
      </form>
    </Card>
  );
});
