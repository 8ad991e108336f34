import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Card, Skeleton } from '../../components';
import { useStore } from '../../stores';
import { CurrenciesSection } from './catalog-currencies';
import { PacksSection } from './catalog-packs';
import { PagesSection } from './catalog-pages';
import { SettingsSection } from './catalog-settings';
import { TiersSection } from './catalog-tiers';
import { useAdmin } from './use-admin';

/**
 * /admin/catalog: what `npm run admin` edits (settings, packs, price tiers, currencies, static pages), checked
 * by the server with the CLI's rules; the CLI's warnings (a pack dearer than the same tokens bought as a custom
 * amount) show at the top after every change.
 */
export const CatalogPage = observer(function CatalogPage() {
  const { t } = useStore();
  const { catalog } = useAdmin();
  useEffect(() => {
    void catalog.load();
  }, [catalog]);
  if (!catalog.catalog) {
    return (
      <Card className="admin-panel">
        <h1>{t('client-admin.catalog.title')}</h1>
        {catalog.error ? <p role="alert">{catalog.error}</p> : <Skeleton height={240} />}
      </Card>
    );
  }
  return (
    <div className="admin-stack">
      <Card className="admin-panel">
        <h1>{t('client-admin.catalog.title')}</h1>
        <p className="admin-muted">{t('client-admin.catalog.lead')}</p>
        {catalog.warnings.length > 0 ? (
          <div className="admin-warnings" role="status" data-testid="catalog-warnings">
            <h2>{t('client-admin.catalog.warnings')}</h2>
            <ul>
              {catalog.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </Card>
      <SettingsSection />
      <PacksSection />
      <TiersSection />
      <CurrenciesSection />
      <PagesSection />
    </div>
  );
});
