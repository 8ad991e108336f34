import { useState } from 'react';
import { observer } from 'mobx-react-lite';
import type { AdminPackView } from '@imagestudio/contracts';
import { Badge, Button, Card, TextField } from '../../components';
import { formatCurrency } from '../../lib/format';
import { useStore } from '../../stores';
import { onSubmit, useChange } from './catalog-forms';
import { CatalogSaveFooter } from './catalog-save-footer';
import { useAdmin } from './use-admin';

const emptyPack = { title: '', price: '', credits: '', description: '' };

/** The packs: visible or hidden, their order, and a form to add one or edit one. */
export const PacksSection = observer(function PacksSection() {
  const { t } = useStore();
  const { catalog } = useAdmin();
  const packs = catalog.catalog?.packs ?? [];
  const [editing, setEditing] = useState<AdminPackView | null>(null);
  const [fields, setFields] = useState(emptyPack);
  const [outcome, run] = useChange();
  const edit = (pack: AdminPackView | null) => {
    setEditing(pack);
    setFields(
      pack
        ? { title: pack.title, price: pack.price, credits: String(pack.credits), description: pack.description }
        : emptyPack,
    );
  };
  const save = async () => {
    const result = await run(() => (editing ? catalog.editPack(editing.id, fields) : catalog.addPack(fields)));
    if (result.ok) edit(null);
  };
  const field = (name: keyof typeof emptyPack) => ({
    value: fields[name],
    onChange: (e: { target: { value: string } }) => setFields({ ...fields, [name]: e.target.value }),
  });
  return (
    <Card className="admin-panel">
      <h2>{t('client-admin.catalog.packs')}</h2>
      <div className="admin-table-wrap">
        <table className="admin-table" data-testid="catalog-packs">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{t('client-admin.catalog.packTitle')}</th>
              <th scope="col">{t('client-admin.catalog.price')}</th>
              <th scope="col">{t('client-admin.catalog.credits')}</th>
              <th scope="col">{t('client-admin.col.status')}</th>
              <th scope="col">{t('client-admin.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {packs.map((pack, i) => (
              <tr key={pack.id}>
                <td>{pack.id}</td>
                <td>{pack.title}</td>
                <td>{formatCurrency(Number(pack.price), 'EUR')}</td>
                <td>{pack.credits}</td>
                <td>{pack.hidden ? <Badge tone="warning">{t('client-admin.catalog.hidden')}</Badge> : null}</td>
                <td>
                  <div className="admin-actions">
                    <Button size="sm" variant="ghost" onClick={() => edit(pack)}>
                      {t('client-admin.edit')}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => void run(() => catalog.editPack(pack.id, { hidden: !pack.hidden }))}
                    >
                      {t(pack.hidden ? 'client-admin.catalog.show' : 'client-admin.catalog.hide')}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={i === 0}
                      aria-label={t('client-admin.catalog.moveUp', { title: pack.title })}
                      onClick={() => void run(() => catalog.movePack(pack.id, -1))}
                    >
                      ↑
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={i === packs.length - 1}
                      aria-label={t('client-admin.catalog.moveDown', { title: pack.title })}
                      onClick={() => void run(() => catalog.movePack(pack.id, 1))}
                    >
                      ↓
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form className="admin-form" onSubmit={onSubmit(() => void save())} data-testid="pack-form">
        <h3>{editing ? t('client-admin.catalog.editPack', { id: editing.id }) : t('client-admin.catalog.addPack')}</h3>
        <div className="admin-filters">
          <TextField label={t('client-admin.catalog.packTitle')} required {...field('title')} />
          <TextField label={t('client-admin.catalog.priceEur')} inputMode="decimal" required {...field('price')} />
          <TextField label={t('client-admin.catalog.credits')} inputMode="decimal" required {...field('credits')} />
          <TextField label={t('client-admin.catalog.description')} {...field('description')} />
        </div>
        <CatalogSaveFooter outcome={outcome}>
          {editing ? (
            <Button type="button" variant="secondary" onClick={() => edit(null)}>
              {t('client-admin.cancel')}
            </Button>
          ) : null}
        </CatalogSaveFooter>
      </form>
    </Card>
  );
});
